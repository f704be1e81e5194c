package main

// The event kinds the library names (its BinlogEvent.Is... methods, in the order vstreamer's
// parseEvent asks them) and, for each, the canonical type and the body its accessor gives. A
// kind whose method covers two type codes (IsWriteRows: WRITE_ROWS_EVENT_V1 and
// WRITE_ROWS_EVENT) is split by the library's own Type(); an event no method names keeps
// "type": null (CONTRACT-29).

import (
	"vitess.io/vitess/go/mysql"
)

type kind struct {
	library string
	is      func(mysql.BinlogEvent) bool
	decode  func(d *decoder, ev mysql.BinlogEvent) (map[string]any, error)
}

// kinds is filled at init: the payload's decoder decodes inner events through kinds again.
var kinds []kind

func init() {
	kinds = []kind{
		{"IsRotate", mysql.BinlogEvent.IsRotate, (*decoder).rotate},
		{"IsGTID", mysql.BinlogEvent.IsGTID, (*decoder).gtid},
		{"IsXID", mysql.BinlogEvent.IsXID, nil},
		{"IsIntVar", mysql.BinlogEvent.IsIntVar, (*decoder).intVar},
		{"IsRand", mysql.BinlogEvent.IsRand, (*decoder).rand},
		{"IsQuery", mysql.BinlogEvent.IsQuery, (*decoder).query},
		{"IsPreviousGTIDs", mysql.BinlogEvent.IsPreviousGTIDs, (*decoder).previousGTIDs},
		{"IsRowsQuery", mysql.BinlogEvent.IsRowsQuery, (*decoder).rowsQuery},
		{"IsTableMap", mysql.BinlogEvent.IsTableMap, (*decoder).tableMap},
		{"IsWriteRows", mysql.BinlogEvent.IsWriteRows, (*decoder).rows},
		{"IsUpdateRows", mysql.BinlogEvent.IsUpdateRows, (*decoder).rows},
		{"IsPartialUpdateRows", mysql.BinlogEvent.IsPartialUpdateRows, (*decoder).rows},
		{"IsDeleteRows", mysql.BinlogEvent.IsDeleteRows, (*decoder).rows},
		{"IsTransactionPayload", mysql.BinlogEvent.IsTransactionPayload, (*decoder).payload},
		{"IsHeartbeat", mysql.BinlogEvent.IsHeartbeat, nil},
		{"IsStop", mysql.BinlogEvent.IsStop, nil},
	}
}

// canonicalNames: the canonical type of each kind, by the library's type code within the kind
// (its constants eWriteRowsEventV1 = 23, eWriteRowsEventV2 = 30, ...; MariaDB's GTID event is
// what IsGTID names on a MariaDB event, MySQL's GTID_LOG_EVENT on a MySQL 5.6+ one).
var canonicalNames = map[string]map[byte]string{
	"IsRotate":             {4: "ROTATE_EVENT"},
	"IsGTID":               {33: "GTID_LOG_EVENT", 162: "GTID_EVENT"},
	"IsXID":                {16: "XID_EVENT"},
	"IsIntVar":             {5: "INTVAR_EVENT"},
	"IsRand":               {13: "RAND_EVENT"},
	"IsQuery":              {2: "QUERY_EVENT"},
	"IsPreviousGTIDs":      {35: "PREVIOUS_GTIDS_LOG_EVENT"},
	"IsRowsQuery":          {29: "ROWS_QUERY_LOG_EVENT"},
	"IsTableMap":           {19: "TABLE_MAP_EVENT"},
	"IsWriteRows":          {23: "WRITE_ROWS_EVENT_V1", 30: "WRITE_ROWS_EVENT"},
	"IsUpdateRows":         {24: "UPDATE_ROWS_EVENT_V1", 31: "UPDATE_ROWS_EVENT"},
	"IsPartialUpdateRows":  {39: "PARTIAL_UPDATE_ROWS_EVENT"},
	"IsDeleteRows":         {25: "DELETE_ROWS_EVENT_V1", 32: "DELETE_ROWS_EVENT"},
	"IsTransactionPayload": {40: "TRANSACTION_PAYLOAD_EVENT"},
	"IsHeartbeat":          {27: "HEARTBEAT_LOG_EVENT"},
	"IsStop":               {3: "STOP_EVENT"},
}

// body names the event from the library's kinds and decodes it with the kind's accessor.
func (d *decoder) body(out Event, ev mysql.BinlogEvent) (map[string]any, error) {
	for _, k := range kinds {
		if !k.is(ev) {
			continue
		}
		if canonical, ok := canonicalNames[k.library][ev.(header).Type()]; ok {
			name(out, canonical, k.library)
		} else {
			out["library_type"] = k.library
		}
		if k.decode == nil {
			return map[string]any{}, nil
		}
		return k.decode(d, ev)
	}
	return nil, nil
}

// rotate: NextLogFile, which vstreamer does not call (it only names the event).
func (d *decoder) rotate(ev mysql.BinlogEvent) (map[string]any, error) {
	file, pos, err := ev.NextLogFile(d.format)
	return map[string]any{"pos": unsigned(pos), "new_log_ident": text([]byte(file))}, err
}

func (d *decoder) intVar(ev mysql.BinlogEvent) (map[string]any, error) {
	typ, val, err := ev.IntVar(d.format)
	if err != nil {
		return nil, err
	}
	return map[string]any{"type": typ, "val": unsigned(val)}, nil
}

func (d *decoder) rand(ev mysql.BinlogEvent) (map[string]any, error) {
	seed1, seed2, err := ev.Rand(d.format)
	if err != nil {
		return nil, err
	}
	return map[string]any{"seed1": unsigned(seed1), "seed2": unsigned(seed2)}, nil
}

func (d *decoder) query(ev mysql.BinlogEvent) (map[string]any, error) {
	q, err := ev.Query(d.format)
	if err != nil {
		return nil, err
	}
	return map[string]any{"db": text([]byte(q.Database)), "query": text([]byte(q.SQL))}, nil
}

func (d *decoder) rowsQuery(ev mysql.BinlogEvent) (map[string]any, error) {
	q, err := ev.RowsQuery(d.format)
	if err != nil {
		return nil, err
	}
	return map[string]any{"rows_query": text([]byte(q))}, nil
}

// previousGTIDs: vstreamer only names this event; the set is what the library's accessor
// PreviousGTIDs returns (go/vt/binlog's streamer calls it). Its error is reported as the
// field's value, tagged "error", and the file goes on, as vstreamer goes on.
func (d *decoder) previousGTIDs(ev mysql.BinlogEvent) (map[string]any, error) {
	pos, err := ev.PreviousGTIDs(d.format)
	if err != nil {
		return map[string]any{"gtid_set": Tagged{"error", err.Error()}}, nil
	}
	set := ""
	if pos.GTIDSet != nil {
		set = pos.GTIDSet.String()
	}
	return map[string]any{"gtid_set": set}, nil
}

func (d *decoder) tableMap(ev mysql.BinlogEvent) (map[string]any, error) {
	id := ev.TableID(d.format)
	tm, err := ev.TableMap(d.format)
	if err != nil {
		return map[string]any{"table_id": unsigned(id)}, err
	}
	d.tables[id] = tm
	types := make([]int, len(tm.Types))
	for i, t := range tm.Types {
		types[i] = int(t)
	}
	metas := make([]int, len(tm.Metadata))
	for i, m := range tm.Metadata {
		metas[i] = int(m)
	}
	return map[string]any{"table_id": unsigned(id), "flags": tm.Flags, "schema": text([]byte(tm.Database)),
		"table": text([]byte(tm.Name)), "column_count": len(tm.Types), "column_types": types,
		"column_metadata": metas, "null_bitmap": bitString(tm.CanBeNull, len(tm.Types))}, nil
}

func bitString(b mysql.Bitmap, n int) string {
	out := make([]byte, n)
	for i := range n {
		out[i] = '0'
		if i < b.Count() && b.Bit(i) {
			out[i] = '1'
		}
	}
	return string(out)
}

func (d *decoder) gtid(ev mysql.BinlogEvent) (map[string]any, error) {
	gtid, _, lastCommitted, sequenceNumber, err := ev.GTID(d.format)
	if err != nil {
		return nil, err
	}
	return gtidBody(gtid, lastCommitted, sequenceNumber), nil
}
