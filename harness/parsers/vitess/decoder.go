package main

// One event at a time, in the order vstreamer's parseEvent takes the library's steps: IsValid,
// the Format of a FORMAT_DESCRIPTION_EVENT (kept for the events after it), StripChecksum, then
// the accessor of the event's kind. TABLE_MAP_EVENTs are kept by table id as vstreamer keeps
// its plans, and a rows event is decoded with the TableMap of its id.

import (
	"fmt"

	"vitess.io/vitess/go/mysql"
)

// header: what the library's event value answers about its header beyond the BinlogEvent
// interface (exported methods of its event type: Type, Flags, Length).
type header interface {
	Type() byte
	Flags() uint16
	Length() uint32
}

type decoder struct {
	format   mysql.BinlogFormat
	tables   map[uint64]*mysql.TableMap
	eventEnd int64 // where the top-level event being decoded ends (the position of its inner events)
}

func newDecoder() *decoder { return &decoder{tables: map[uint64]*mysql.TableMap{}} }

// top decodes a top-level event: its inner events (a compressed transaction's) sit at its end.
func (d *decoder) top(position int64, ev mysql.BinlogEvent) (Event, error) {
	d.eventEnd = position + int64(len(ev.Bytes()))
	return d.decode(position, ev)
}

// decode maps one event starting at `position`; a non-nil error is the library's refusal of it
// (the event is still returned when its header could be reported).
func (d *decoder) decode(position int64, ev mysql.BinlogEvent) (Event, error) {
	if !ev.IsValid() {
		return nil, fmt.Errorf("invalid event (IsValid is false)")
	}
	out := headerFields(position, ev)
	if ev.IsFormatDescription() {
		format, err := ev.Format()
		if err != nil {
			return out, fmt.Errorf("can't parse FORMAT_DESCRIPTION_EVENT: %v", err)
		}
		d.format = format
		name(out, "FORMAT_DESCRIPTION_EVENT", "IsFormatDescription")
		// vstreamer takes the Format before any StripChecksum: the event's checksum is not read
		out["_undetermined"] = []string{"checksum.stored"}
		out["body"] = formatBody(format)
		return out, nil
	}
	if d.format.IsZero() {
		if ev.IsRotate() { // the artificial Rotate a dump starts with (vstreamer skips it)
			name(out, "ROTATE_EVENT", "IsRotate")
			return out, nil
		}
		return out, fmt.Errorf("got a real event before FORMAT_DESCRIPTION_EVENT")
	}
	stripped, checksum, err := ev.StripChecksum(d.format)
	if err != nil {
		return out, fmt.Errorf("can't strip checksum from binlog event: %v", err)
	}
	out["checksum"] = map[string]any{"stored": nil}
	if checksum != nil {
		out["checksum"] = map[string]any{"stored": littleEndian(checksum)}
	}
	body, err := d.body(out, stripped)
	if body != nil {
		out["body"] = body
	}
	return out, err
}

func headerFields(position int64, ev mysql.BinlogEvent) Event {
	out := Event{"position": position, "next_position": ev.NextPosition(),
		"server_id": ev.ServerID(), "timestamp": ev.Timestamp(), "type": nil, "library_type": nil}
	if h, ok := ev.(header); ok {
		out["event_size"] = h.Length()
		out["type_code"] = h.Type()
		out["flags"] = map[string]any{"value": h.Flags()}
	}
	return out
}

// An event no Is... method names keeps "type" and "library_type" null: the library has no word for it.

// name records the canonical type the adapter maps from the library's naming of the event and
// that naming (the Is... method that answered true), per CONTRACT-29.
func name(out Event, canonical, library string) {
	out["type"] = canonical
	out["library_type"] = library
}

func littleEndian(b []byte) uint64 {
	var v uint64
	for i := len(b) - 1; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}

func formatBody(f mysql.BinlogFormat) map[string]any {
	sizes := make([]int, len(f.HeaderSizes))
	for i, s := range f.HeaderSizes {
		sizes[i] = int(s)
	}
	return map[string]any{"binlog_version": f.FormatVersion, "server_version": f.ServerVersion,
		"common_header_len": f.HeaderLength, "post_header_len": sizes,
		"checksum_alg": checksumName(f.ChecksumAlgorithm)}
}

func checksumName(alg byte) any {
	switch alg {
	case mysql.BinlogChecksumAlgOff:
		return "OFF"
	case mysql.BinlogChecksumAlgCRC32:
		return "CRC32"
	case mysql.BinlogChecksumAlgUndef:
		return "NONE"
	}
	return int(alg)
}
