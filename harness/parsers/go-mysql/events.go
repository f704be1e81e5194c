package main

// One go-mysql BinlogEvent as a canonical event (docs/canonical-model.md): the header fields
// the library's EventHeader carries, and the body fields of the event structs it decodes.

import (
	"fmt"
	"strings"

	"github.com/go-mysql-org/go-mysql/replication"
)

// canonical maps one event at `position` (where it starts in the file).
func canonical(position int64, ev *replication.BinlogEvent) Event {
	h := ev.Header
	out := Event{
		"position":      position,
		"event_size":    h.EventSize,
		"next_position": h.LogPos,
		"type_code":     uint8(h.EventType),
		"type":          typeName(h.EventType),
		"library_type":  h.EventType.String(),
		"server_id":     h.ServerID,
		"timestamp":     h.Timestamp,
		"flags":         map[string]any{"value": h.Flags},
	}
	if body := bodyOf(ev.Event, uint8(h.EventType), position+int64(h.EventSize)); body != nil {
		out["body"] = body
	}
	return out
}

// bodyOf: the fields each library struct exposes, named as the oracle names them.
func bodyOf(e replication.Event, typeCode uint8, end int64) map[string]any {
	switch ev := e.(type) {
	case *replication.FormatDescriptionEvent:
		return map[string]any{"binlog_version": ev.Version,
			"server_version": strings.TrimRight(ev.ServerVersion, "\x00"), "created": ev.CreateTimestamp,
			"common_header_len": ev.EventHeaderLength}
	case *replication.RotateEvent:
		return map[string]any{"pos": unsigned(ev.Position), "new_log_ident": text(ev.NextLogName)}
	case *replication.QueryEvent:
		return map[string]any{"thread_id": ev.SlaveProxyID, "query_exec_time": ev.ExecutionTime,
			"error_code": ev.ErrorCode, "status_vars_len": len(ev.StatusVars), "db": text(ev.Schema),
			"query": text(ev.Query)}
	case *replication.XIDEvent:
		return map[string]any{"xid": unsigned(ev.XID)}
	case *replication.IntVarEvent:
		return map[string]any{"type": uint8(ev.Type), "val": unsigned(ev.Value)}
	case *replication.GtidTaggedLogEvent:
		return gtidBody(&ev.GTIDEvent)
	case *replication.GTIDEvent:
		return gtidBody(ev)
	case *replication.PreviousGTIDsEvent:
		return map[string]any{"gtid_set": ev.GTIDSets}
	case *replication.TableMapEvent:
		return tableMapBody(ev)
	case *replication.RowsEvent:
		return map[string]any{"table_id": unsigned(ev.TableID), "width": unsigned(ev.ColumnCount),
			"rows": rowImages(ev, typeCode)}
	case *replication.RowsQueryEvent:
		return map[string]any{"rows_query": text(ev.Query)}
	case *replication.MariadbAnnotateRowsEvent:
		return map[string]any{"query": text(ev.Query)}
	case *replication.MariadbGTIDEvent:
		return map[string]any{"seq_no": unsigned(ev.GTID.SequenceNumber), "domain_id": ev.GTID.DomainID,
			"flags2": ev.Flags, "gtid": ev.GTID.String()}
	case *replication.MariadbGTIDListEvent:
		return map[string]any{"count": len(ev.GTIDs), "gtid_list": mariadbGtidList(ev)}
	case *replication.TransactionPayloadEvent:
		return payloadBody(ev, end)
	case *replication.GenericEvent:
		if undecodedRows[typeCode] {
			return map[string]any{"rows": []any{}} // what the user gets: nothing
		}
	}
	return nil
}

func gtidBody(ev *replication.GTIDEvent) map[string]any {
	sid := fmt.Sprintf("%x-%x-%x-%x-%x", ev.SID[0:4], ev.SID[4:6], ev.SID[6:8], ev.SID[8:10], ev.SID[10:16])
	return map[string]any{"gtid_flags": ev.CommitFlag, "sid": sid, "gno": signed(ev.GNO),
		"last_committed": signed(ev.LastCommitted), "sequence_number": signed(ev.SequenceNumber),
		"immediate_commit_timestamp": unsigned(ev.ImmediateCommitTimestamp),
		"original_commit_timestamp":  unsigned(ev.OriginalCommitTimestamp),
		"transaction_length":         unsigned(ev.TransactionLength),
		"immediate_server_version":   ev.ImmediateServerVersion,
		"original_server_version":    ev.OriginalServerVersion}
}

func tableMapBody(ev *replication.TableMapEvent) map[string]any {
	types := make([]int, len(ev.ColumnType))
	for i, t := range ev.ColumnType {
		types[i] = int(t)
	}
	return map[string]any{"table_id": unsigned(ev.TableID), "flags": ev.Flags, "schema": text(ev.Schema),
		"table": text(ev.Table), "column_count": unsigned(ev.ColumnCount), "column_types": types,
		"null_bitmap": bitString(ev.NullBitmap, int(ev.ColumnCount))}
}

func mariadbGtidList(ev *replication.MariadbGTIDListEvent) string {
	parts := make([]string, len(ev.GTIDs))
	for i, g := range ev.GTIDs {
		parts[i] = g.String()
	}
	return strings.Join(parts, ",")
}

// payloadBody: the compressed transaction and the events the library decoded from it, at the
// position where the payload event ends (as mysqlbinlog prints them).
func payloadBody(ev *replication.TransactionPayloadEvent, outerEnd int64) map[string]any {
	inner := make([]Event, 0, len(ev.Events))
	for _, e := range ev.Events {
		nested := canonical(outerEnd, e)
		// the library overwrites the inner headers' log_pos with positions of its own
		// (stampInnerEventPositions): what the binlog stored there is not delivered
		nested["_undetermined"] = []string{"next_position"}
		inner = append(inner, nested)
	}
	return map[string]any{"payload_size": unsigned(ev.Size), "uncompressed_size": unsigned(ev.UncompressedSize),
		"compression_type": unsigned(ev.CompressionType), "events": inner}
}
