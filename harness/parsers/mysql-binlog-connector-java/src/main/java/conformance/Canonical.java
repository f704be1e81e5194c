package conformance;

import com.github.shyiko.mysql.binlog.event.*;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/** One library Event as a canonical event (docs/canonical-model.md): the header fields the
 * library keeps, and the bodies of CAPABILITIES. The Table_maps seen so far give the rows their
 * column types, as they give them to the library. */
final class Canonical {
    private final Map<Long, TableMapEventData> tables = new HashMap<>();
    private final Map<EventType, BiFunction<Canonical, EventData, Map<String, Object>>> bodies = new EnumMap<>(EventType.class);

    Canonical() {
        bodies.put(EventType.QUERY, (c, d) -> query((QueryEventData) d));
        bodies.put(EventType.ROTATE, (c, d) -> rotate((RotateEventData) d));
        bodies.put(EventType.XID, (c, d) -> body("xid", Values.unsignedLong(((XidEventData) d).getXid())));
        bodies.put(EventType.FORMAT_DESCRIPTION, (c, d) -> formatDescription((FormatDescriptionEventData) d));
        bodies.put(EventType.INTVAR, (c, d) -> body("type", ((IntVarEventData) d).getType(),
            "val", Values.unsignedLong(((IntVarEventData) d).getValue())));
        bodies.put(EventType.TABLE_MAP, (c, d) -> c.tableMap((TableMapEventData) d));
        bodies.put(EventType.ROWS_QUERY, (c, d) -> body("rows_query", Values.text(((RowsQueryEventData) d).getQuery())));
        bodies.put(EventType.GTID, (c, d) -> gtid((GtidEventData) d));
        bodies.put(EventType.ANNOTATE_ROWS, (c, d) -> body("query", Values.text(((AnnotateRowsEventData) d).getRowsQuery())));
        bodies.put(EventType.MARIADB_GTID, (c, d) -> body("seq_no", Values.unsignedLong(((MariadbGtidEventData) d).getSequence()),
            "domain_id", ((MariadbGtidEventData) d).getDomainId()));
        if (LibraryFeatures.BINLOG_CHECKPOINT != null) bodies.put(LibraryFeatures.BINLOG_CHECKPOINT,
            (c, d) -> body("binlog_file_name", Values.text((String) LibraryFeatures.get(d, "getLogFileName"))));
        for (EventType t : EventTypes.WRITES) bodies.put(t, (c, d) -> c.writeRows((WriteRowsEventData) d));
        for (EventType t : EventTypes.DELETES) bodies.put(t, (c, d) -> c.deleteRows((DeleteRowsEventData) d));
        for (EventType t : EventTypes.UPDATES) bodies.put(t, (c, d) -> c.updateRows((UpdateRowsEventData) d));
    }

    /** The canonical event at `position`; the body only where the library decoded one. */
    Map<String, Object> event(long position, Event e) {
        EventHeaderV4 h = e.getHeader();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("position", position);
        out.put("event_size", h.getEventLength());
        out.put("next_position", h.getNextPosition());
        out.put("type_code", EventTypes.code(h.getEventType()));
        out.put("type", EventTypes.canonical(h.getEventType(), e.getData()));
        out.put("library_type", h.getEventType().name() + (e.getData() == null ? " (no data)" : ""));
        out.put("server_id", h.getServerId());
        out.put("timestamp", h.getTimestamp() / 1000);
        out.put("flags", body("value", h.getFlags()));
        EventData d = e.getData();
        var mapper = bodies.get(h.getEventType());
        if (d instanceof TransactionPayloadEventData) {
            out.put("body", body("events", nested(position + h.getEventLength(), h.getNextPosition(),
                (TransactionPayloadEventData) d)));
        } else {
            out.put("body", d != null && mapper != null ? mapper.apply(this, unwrap(d)) : new LinkedHashMap<>());
        }
        return out;
    }

    /** The events the library decompressed from a Transaction_payload, placed as mysqlbinlog
     * prints them (docs/canonical-model.md): at the end of the payload event, with its log_pos. */
    private List<Object> nested(long position, long nextPosition, TransactionPayloadEventData d) {
        List<Object> out = new ArrayList<>();
        for (Event inner : d.getUncompressedEvents()) {
            Map<String, Object> e = event(position, inner);
            e.put("next_position", nextPosition);
            out.add(e);
        }
        return out;
    }

    private static EventData unwrap(EventData d) {
        return d instanceof com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.EventDataWrapper
            ? ((com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer.EventDataWrapper) d).getInternal() : d;
    }

    static Map<String, Object> body(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static Map<String, Object> query(QueryEventData d) {
        return body("thread_id", d.getThreadId(), "query_exec_time", d.getExecutionTime(),
            "error_code", d.getErrorCode(), "db", Values.text(d.getDatabase()), "query", Values.text(d.getSql()));
    }

    private static Map<String, Object> rotate(RotateEventData d) {
        return body("pos", Values.unsignedLong(d.getBinlogPosition()), "new_log_ident", Values.text(d.getBinlogFilename()));
    }

    private static Map<String, Object> formatDescription(FormatDescriptionEventData d) {
        return body("binlog_version", d.getBinlogVersion(), "server_version", Values.text(d.getServerVersion()),
            "common_header_len", d.getHeaderLength());
    }

    private static Map<String, Object> gtid(GtidEventData d) {
        if (!LibraryFeatures.GTID_LOGICAL_CLOCK) return body("gtid", d.getGtid());
        return body("gtid", d.getGtid(), "last_committed", LibraryFeatures.get(d, "getLastCommitted"),
            "sequence_number", LibraryFeatures.get(d, "getSequenceNumber"));
    }

    private Map<String, Object> tableMap(TableMapEventData d) {
        tables.put(d.getTableId(), d);
        List<Object> types = new ArrayList<>();
        for (byte t : d.getColumnTypes()) types.add(t & 0xFF);
        return body("table_id", d.getTableId(), "schema", Values.text(d.getDatabase()),
            "table", Values.text(d.getTable()), "column_count", types.size(), "column_types", types);
    }

    private RowValues values(long tableId) {
        TableMapEventData t = tables.get(tableId);
        if (t == null) throw new IllegalStateException("rows of table " + tableId + " without its Table_map");
        return new RowValues(t);
    }

    private Map<String, Object> rows(long tableId, BitSet present, List<Serializable[]> rows) {
        RowValues v = values(tableId);
        List<Object> out = new ArrayList<>();
        for (Serializable[] row : rows) out.add(body("values", v.image(present, row)));
        return body("table_id", tableId, "rows", out);
    }

    private Map<String, Object> writeRows(WriteRowsEventData d) {
        return rows(d.getTableId(), d.getIncludedColumns(), d.getRows());
    }

    private Map<String, Object> deleteRows(DeleteRowsEventData d) {
        return rows(d.getTableId(), d.getIncludedColumns(), d.getRows());
    }

    private Map<String, Object> updateRows(UpdateRowsEventData d) {
        RowValues v = values(d.getTableId());
        List<Object> out = new ArrayList<>();
        for (Map.Entry<Serializable[], Serializable[]> r : d.getRows()) {
            out.add(body("before_image", body("values", v.image(d.getIncludedColumnsBeforeUpdate(), r.getKey())),
                "after_image", body("values", v.image(d.getIncludedColumns(), r.getValue()))));
        }
        return body("table_id", d.getTableId(), "rows", out);
    }
}
