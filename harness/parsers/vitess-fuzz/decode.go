package gofuzz

// The library calls the targets make, in the order harness/parsers/vitess (vitess-file) and
// VReplication's vstreamer make them: Vitess has no file reader, so the file is cut into events
// by each header's event_length and every buffer goes to NewMysql56BinlogEvent (or
// NewMariadbBinlogEvent when the first event names MariaDB); then IsValid, Format,
// StripChecksum and the accessor of the event's kind, Rows with the TableMap of its table id,
// binlog.CellValue on every present cell, and the inner events of a TRANSACTION_PAYLOAD_EVENT.
// Only the library's values are computed: nothing is printed or compared.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"

	"vitess.io/vitess/go/mysql"
	mysqlbinlog "vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/mysql/replication"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
)

var magic = []byte{0xfe, 'b', 'i', 'n'}

const headerLen = 19

var errShort = errors.New("event runs past the end of the input")

type decoder struct {
	format  mysql.BinlogFormat
	tables  map[uint64]*mysql.TableMap
	payload bool // decoding a payload's inner events: no nested payloads
}

// events cuts a binlog file into events as the adapter does and hands each to `each`.
func events(data []byte, each func(mysql.BinlogEvent) error) error {
	if !bytes.HasPrefix(data, magic) {
		return nil
	}
	newEvent := mysql.NewMysql56BinlogEvent
	if mariadb(data) {
		newEvent = mysql.NewMariadbBinlogEvent
	}
	for pos := len(magic); pos < len(data); {
		rest := data[pos:]
		if len(rest) < headerLen {
			return errShort
		}
		size := int(binary.LittleEndian.Uint32(rest[9:]))
		if size > len(rest) {
			return errShort
		}
		if size < headerLen { // the adapter's choice: the rest of the file, for IsValid to judge
			size = len(rest)
		}
		if err := each(newEvent(rest[:size])); err != nil {
			return err
		}
		pos += size
	}
	return nil
}

// mariadb: the first event's server version names MariaDB (as a user who knows the server picks).
func mariadb(data []byte) bool {
	return bytes.Contains(data[:min(len(data), len(magic)+headerLen+2+50)], []byte("MariaDB"))
}

// decode runs one event through the library; an error is the library's refusal (clean).
func (d *decoder) decode(ev mysql.BinlogEvent) error {
	if !ev.IsValid() {
		return errors.New("invalid event")
	}
	ev.NextPosition()
	if ev.IsFormatDescription() {
		f, err := ev.Format()
		if err == nil {
			d.format = f
		}
		return err
	}
	if d.format.IsZero() {
		if ev.IsRotate() { // the artificial Rotate before a dump's format (vstreamer skips it)
			return nil
		}
		return errors.New("no FORMAT_DESCRIPTION_EVENT yet")
	}
	ev, _, err := ev.StripChecksum(d.format)
	if err != nil {
		return err
	}
	return d.body(ev)
}

// body calls the accessor of the event's kind, as the adapter's kinds table does.
func (d *decoder) body(ev mysql.BinlogEvent) error {
	f := d.format
	var err error
	switch {
	case ev.IsRotate():
		_, _, err = ev.NextLogFile(f)
	case ev.IsGTID():
		var gtid replication.GTID
		if gtid, _, _, _, err = ev.GTID(f); err == nil && gtid != nil {
			_ = gtid.String()
		}
	case ev.IsIntVar():
		_, _, err = ev.IntVar(f)
	case ev.IsRand():
		_, _, err = ev.Rand(f)
	case ev.IsQuery():
		_, err = ev.Query(f)
	case ev.IsPreviousGTIDs(): // its error is a field's value in the adapter: the file goes on
		if pos, e := ev.PreviousGTIDs(f); e == nil && pos.GTIDSet != nil {
			_ = pos.GTIDSet.String()
		}
	case ev.IsRowsQuery():
		_, err = ev.RowsQuery(f)
	case ev.IsTableMap():
		var tm *mysql.TableMap
		id := ev.TableID(f)
		if tm, err = ev.TableMap(f); err == nil {
			d.tables[id] = tm
		}
	case ev.IsWriteRows(), ev.IsUpdateRows(), ev.IsPartialUpdateRows(), ev.IsDeleteRows():
		err = d.rows(ev)
	case ev.IsTransactionPayload() && !d.payload:
		err = d.transaction(ev)
	}
	return err
}

// rows: Rows with the TableMap of the event's id, then CellValue on every present cell of both
// images, fields typed from the Table_map alone (sqltypes.MySQLToType(type, 0)), as vstreamer
// does without a schema.
func (d *decoder) rows(ev mysql.BinlogEvent) error {
	tm := d.tables[ev.TableID(d.format)]
	if tm == nil {
		return nil
	}
	rows, err := ev.Rows(d.format, tm)
	if err != nil {
		return err
	}
	fields := make([]*querypb.Field, len(tm.Types))
	for i, t := range tm.Types {
		typ, err := sqltypes.MySQLToType(t, 0)
		if err != nil {
			return err
		}
		fields[i] = &querypb.Field{Type: typ}
	}
	for _, row := range rows.Rows {
		if err := cells(tm, fields, row.Identify, rows.IdentifyColumns, row.NullIdentifyColumns, mysql.Bitmap{}); err != nil {
			return err
		}
		if err := cells(tm, fields, row.Data, rows.DataColumns, row.NullColumns, row.JSONPartialValues); err != nil {
			return err
		}
	}
	return nil
}

func cells(tm *mysql.TableMap, fields []*querypb.Field, data []byte, present, nulls, partial mysql.Bitmap) error {
	if len(data) == 0 {
		return nil
	}
	pos, value, jsonIndex := 0, 0, 0
	for col := 0; col < present.Count(); col++ {
		if !present.Bit(col) {
			continue
		}
		isJSON := fields[col].Type == querypb.Type_JSON
		if nulls.Bit(value) {
			value++
			if isJSON {
				jsonIndex++
			}
			continue
		}
		isPartial := false
		if partial.Count() > 0 && isJSON {
			isPartial = partial.Bit(jsonIndex)
			jsonIndex++
		}
		v, n, err := mysqlbinlog.CellValue(data, pos, tm.Types[col], tm.Metadata[col], fields[col], isPartial)
		if err != nil {
			return err
		}
		_ = v.ToString()
		pos += n
		value++
	}
	return nil
}

// transaction: TransactionPayload, then GetNextEvent until io.EOF, each inner event decoded
// like a top-level one with the checksum algorithm OFF (inner events carry none).
func (d *decoder) transaction(ev mysql.BinlogEvent) error {
	tp, err := ev.TransactionPayload(d.format)
	if err != nil {
		return err
	}
	defer tp.Close()
	inner := *d
	inner.payload = true
	inner.format.ChecksumAlgorithm = mysql.BinlogChecksumAlgOff
	for {
		next, err := tp.GetNextEvent()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := inner.decode(next); err != nil {
			return err
		}
	}
}
