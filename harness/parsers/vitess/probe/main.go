// probe runs Vitess's go/mysql alone, without the harness, its primary or the adapter, to show
// the library's own behaviour against a real server (tests/test_vitess_live.py). It connects as
// go/vt/binlog.BinlogConnection does, dumps from FILE at POS (Conn.SendBinlogDumpCommand), reads
// with Conn.ReadBinlogEvent until the server is silent for two seconds, and prints one JSON line
// per event of interest: a Rotate's name from NextLogFile, after StripChecksum (what the
// interface asks) and before it (the control); each row of a rows event, its cells decoded by
// binlog.CellValue with fields from the Table_map, as text; the type code of every event after
// the Format_description, as {"named": code} where one of the library's Is... methods names it,
// else {"unnamed": code}; a Previous_gtids event's set as PreviousGTIDs reads it, or its error.
// With "mariadb" last, the session first sets @mariadb_slave_capability=4, as Vitess's MariaDB
// flavor does before its dump. With "current" instead of FILE POS it prints the server's position
// as Conn.PrimaryPosition reads it (BinlogConnection.StartBinlogDumpFromCurrent's first step, the
// GTID set vstreamer starts from), or its error, and stops.
//
//	probe HOST PORT USER PASS FILE POS [mariadb]
//	probe HOST PORT USER PASS current
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"vitess.io/vitess/go/mysql"
	mysqlbinlog "vitess.io/vitess/go/mysql/binlog"
	"vitess.io/vitess/go/sqltypes"
	querypb "vitess.io/vitess/go/vt/proto/query"
	"vitess.io/vitess/go/vt/vttls"
)

func printPrimaryPosition(conn *mysql.Conn) {
	pos, err := conn.PrimaryPosition()
	out := map[string]any{"position": pos.String()}
	if err != nil {
		out = map[string]any{"position_error": err.Error()}
	}
	line, _ := json.Marshal(out)
	fmt.Println(string(line))
}

func main() {
	port, _ := strconv.Atoi(os.Args[2])
	pos := 0
	if len(os.Args) > 6 {
		pos, _ = strconv.Atoi(os.Args[6])
	}
	conn, err := mysql.Connect(context.Background(), &mysql.ConnParams{Host: os.Args[1], Port: port,
		Uname: os.Args[3], Pass: os.Args[4], SslMode: vttls.Disabled})
	must(err)
	if os.Args[5] == "current" {
		printPrimaryPosition(conn)
		return
	}
	_, err = conn.ExecuteFetch("SET @source_binlog_checksum = @@global.binlog_checksum, @master_binlog_checksum=@@global.binlog_checksum", 0, false)
	must(err)
	if len(os.Args) > 7 && os.Args[7] == "mariadb" {
		_, err = conn.ExecuteFetch("SET @mariadb_slave_capability=4", 0, false)
		must(err)
	}
	must(conn.SendBinlogDumpCommand(1234567, os.Args[5], uint32(pos)))
	events := make(chan mysql.BinlogEvent)
	go func() {
		for {
			ev, err := conn.ReadBinlogEvent()
			if err != nil {
				close(events)
				return
			}
			events <- ev
		}
	}()
	var format mysql.BinlogFormat
	tables := map[uint64]*mysql.TableMap{}
	for {
		var ev mysql.BinlogEvent
		select {
		case e, ok := <-events:
			if !ok {
				return
			}
			ev = e
		case <-time.After(2 * time.Second):
			return
		}
		if !ev.IsValid() {
			continue
		}
		if ev.IsFormatDescription() {
			format, err = ev.Format()
			must(err)
			continue
		}
		if format.IsZero() {
			continue
		}
		whole := ev
		ev, _, err = ev.StripChecksum(format)
		must(err)
		if named(ev) {
			emit(map[string]any{"named": typeCode(whole)})
		} else {
			emit(map[string]any{"unnamed": typeCode(whole)})
		}
		switch {
		case ev.IsRotate():
			stripped, _, _ := ev.NextLogFile(format)
			unstripped, _, _ := whole.NextLogFile(format)
			emit(map[string]any{"rotate": stripped, "rotate_unstripped": unstripped})
		case ev.IsPreviousGTIDs():
			if set, err := ev.PreviousGTIDs(format); err != nil {
				emit(map[string]any{"previous_gtids_error": err.Error()})
			} else {
				emit(map[string]any{"previous_gtids": set.String()})
			}
		case ev.IsTableMap():
			tm, err := ev.TableMap(format)
			must(err)
			tables[ev.TableID(format)] = tm
		case ev.IsWriteRows():
			tm := tables[ev.TableID(format)]
			rows, err := ev.Rows(format, tm)
			must(err)
			for _, row := range rows.Rows {
				emit(map[string]any{"table": tm.Name, "values": cells(tm, row.Data, rows.DataColumns, row.NullColumns)})
			}
		}
	}
}

// typeCode: the header's type byte, as the library's event value answers it (its exported
// Type method, beyond the BinlogEvent interface).
func typeCode(ev mysql.BinlogEvent) int {
	if h, ok := ev.(interface{ Type() byte }); ok {
		return int(h.Type())
	}
	return -1
}

// named: some Is... method of the library's BinlogEvent names the event.
func named(ev mysql.BinlogEvent) bool {
	for _, is := range []func(mysql.BinlogEvent) bool{
		mysql.BinlogEvent.IsRotate, mysql.BinlogEvent.IsGTID, mysql.BinlogEvent.IsXID,
		mysql.BinlogEvent.IsIntVar, mysql.BinlogEvent.IsRand, mysql.BinlogEvent.IsQuery,
		mysql.BinlogEvent.IsPreviousGTIDs, mysql.BinlogEvent.IsRowsQuery, mysql.BinlogEvent.IsTableMap,
		mysql.BinlogEvent.IsWriteRows, mysql.BinlogEvent.IsUpdateRows, mysql.BinlogEvent.IsPartialUpdateRows,
		mysql.BinlogEvent.IsDeleteRows, mysql.BinlogEvent.IsTransactionPayload, mysql.BinlogEvent.IsHeartbeat,
		mysql.BinlogEvent.IsStop,
	} {
		if is(ev) {
			return true
		}
	}
	return false
}

func cells(tm *mysql.TableMap, data []byte, present, nulls mysql.Bitmap) []any {
	var out []any
	pos, valueIndex := 0, 0
	for col := 0; col < present.Count(); col++ {
		if !present.Bit(col) {
			continue
		}
		if nulls.Bit(valueIndex) {
			out = append(out, nil)
			valueIndex++
			continue
		}
		typ, err := sqltypes.MySQLToType(tm.Types[col], 0)
		must(err)
		v, l, err := mysqlbinlog.CellValue(data, pos, tm.Types[col], tm.Metadata[col], &querypb.Field{Type: typ}, false)
		must(err)
		pos += l
		out = append(out, string(v.Raw()))
		valueIndex++
	}
	return out
}

func emit(line map[string]any) {
	b, _ := json.Marshal(line)
	fmt.Println(string(b))
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}
