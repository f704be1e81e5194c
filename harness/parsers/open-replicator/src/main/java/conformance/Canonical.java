package conformance;

import com.google.code.or.binlog.BinlogEventV4;
import com.google.code.or.binlog.BinlogEventV4Header;
import com.google.code.or.binlog.impl.event.*;
import com.google.code.or.common.glossary.Pair;
import com.google.code.or.common.glossary.Row;
import com.google.code.or.common.glossary.column.StringColumn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/** One open-replicator event as a canonical event (docs/canonical-model.md): its header as the
 * library reads it (position = next_position - event length, the library's getPosition), and the
 * bodies of Capabilities, by the event's class. The Table_maps seen so far give the rows their
 * column types, as they give them to the library. */
final class Canonical {
    private final Map<Long, TableMapEvent> tables = new HashMap<>();
    private final Map<Class<?>, BiFunction<Canonical, BinlogEventV4, Map<String, Object>>> bodies = new HashMap<>();

    Canonical() {
        bodies.put(QueryEvent.class, (c, e) -> query((QueryEvent) e));
        bodies.put(RotateEvent.class, (c, e) -> body("pos", Values.unsignedLong(((RotateEvent) e).getBinlogPosition()),
            "new_log_ident", text(((RotateEvent) e).getBinlogFileName())));
        bodies.put(XidEvent.class, (c, e) -> body("xid", Values.unsignedLong(((XidEvent) e).getXid())));
        bodies.put(FormatDescriptionEvent.class, (c, e) -> formatDescription((FormatDescriptionEvent) e));
        bodies.put(IntvarEvent.class, (c, e) -> body("type", ((IntvarEvent) e).getType(),
            "val", Values.unsignedLong(((IntvarEvent) e).getValue().longValue())));
        bodies.put(TableMapEvent.class, (c, e) -> c.tableMap((TableMapEvent) e));
        bodies.put(GtidEvent.class, (c, e) -> body("gtid", gtid((GtidEvent) e)));
        bodies.put(WriteRowsEvent.class, (c, e) -> c.rows(((WriteRowsEvent) e).getTableId(), ((WriteRowsEvent) e).getRows()));
        bodies.put(WriteRowsEventV2.class, (c, e) -> c.rows(((WriteRowsEventV2) e).getTableId(), ((WriteRowsEventV2) e).getRows()));
        bodies.put(DeleteRowsEvent.class, (c, e) -> c.rows(((DeleteRowsEvent) e).getTableId(), ((DeleteRowsEvent) e).getRows()));
        bodies.put(DeleteRowsEventV2.class, (c, e) -> c.rows(((DeleteRowsEventV2) e).getTableId(), ((DeleteRowsEventV2) e).getRows()));
        bodies.put(UpdateRowsEvent.class, (c, e) -> c.updateRows(((UpdateRowsEvent) e).getTableId(), ((UpdateRowsEvent) e).getRows()));
        bodies.put(UpdateRowsEventV2.class, (c, e) -> c.updateRows(((UpdateRowsEventV2) e).getTableId(), ((UpdateRowsEventV2) e).getRows()));
    }

    /** The canonical type name of each of the library's event classes (each class declares the
     * one EVENT_TYPE it parses: the V2 classes are the v2 rows events). A class not here (none
     * today) has no name: type null. */
    private static final Map<String, String> TYPES = Map.ofEntries(
        Map.entry("QueryEvent", "QUERY_EVENT"), Map.entry("RotateEvent", "ROTATE_EVENT"), Map.entry("XidEvent", "XID_EVENT"),
        Map.entry("FormatDescriptionEvent", "FORMAT_DESCRIPTION_EVENT"), Map.entry("IntvarEvent", "INTVAR_EVENT"),
        Map.entry("TableMapEvent", "TABLE_MAP_EVENT"), Map.entry("GtidEvent", "GTID_LOG_EVENT"),
        Map.entry("StopEvent", "STOP_EVENT"), Map.entry("RandEvent", "RAND_EVENT"), Map.entry("UserVarEvent", "USER_VAR_EVENT"),
        Map.entry("IncidentEvent", "INCIDENT_EVENT"),
        Map.entry("WriteRowsEvent", "WRITE_ROWS_EVENT_V1"), Map.entry("UpdateRowsEvent", "UPDATE_ROWS_EVENT_V1"),
        Map.entry("DeleteRowsEvent", "DELETE_ROWS_EVENT_V1"), Map.entry("WriteRowsEventV2", "WRITE_ROWS_EVENT"),
        Map.entry("UpdateRowsEventV2", "UPDATE_ROWS_EVENT"), Map.entry("DeleteRowsEventV2", "DELETE_ROWS_EVENT"));

    Map<String, Object> event(BinlogEventV4 e) {
        BinlogEventV4Header h = e.getHeader();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("position", h.getPosition());
        out.put("event_size", h.getEventLength());
        out.put("next_position", h.getNextPosition());
        out.put("type_code", h.getEventType());
        out.put("type", TYPES.get(e.getClass().getSimpleName()));  // the library's class names it, never the byte
        out.put("library_type", e.getClass().getSimpleName());
        out.put("server_id", h.getServerId());
        out.put("timestamp", h.getTimestamp() / 1000);
        out.put("flags", body("value", h.getFlags()));
        var mapper = bodies.get(e.getClass());
        out.put("body", mapper != null ? mapper.apply(this, e) : new LinkedHashMap<>());
        return out;
    }

    static Map<String, Object> body(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    private static Object text(StringColumn s) {
        return s == null ? null : Values.text(s.getValue());
    }

    private static Map<String, Object> query(QueryEvent d) {
        return body("thread_id", d.getThreadId(), "query_exec_time", d.getElapsedTime(),
            "error_code", d.getErrorCode(), "db", text(d.getDatabaseName()), "query", text(d.getSql()));
    }

    private static Map<String, Object> formatDescription(FormatDescriptionEvent d) {
        return body("binlog_version", d.getBinlogVersion(), "server_version", text(d.getServerVersion()),
            "common_header_len", d.getHeaderLength());
    }

    private static String gtid(GtidEvent d) {
        StringBuilder h = new StringBuilder();
        byte[] sid = d.getSourceId();
        for (int i = 0; i < sid.length; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) h.append('-');
            h.append(String.format("%02x", sid[i] & 0xFF));
        }
        return h + ":" + d.getTransactionId();
    }

    private Map<String, Object> tableMap(TableMapEvent d) {
        tables.put(d.getTableId(), d);
        List<Object> types = new ArrayList<>();
        for (byte t : d.getColumnTypes()) types.add(t & 0xFF);
        return body("table_id", d.getTableId(), "schema", text(d.getDatabaseName()),
            "table", text(d.getTableName()), "column_count", types.size(), "column_types", types);
    }

    /** The library decodes rows only with their Table_map: one it gave us must be there. */
    private void requireTable(long tableId) {
        if (!tables.containsKey(tableId)) throw new IllegalStateException("rows of table " + tableId + " without its Table_map");
    }

    /** The library's Row holds only the columns present in the image. */
    private Map<String, Object> rows(long tableId, List<Row> rows) {
        requireTable(tableId);
        List<Object> out = new ArrayList<>();
        for (Row row : rows) out.add(body("values", RowValues.image(row)));
        return body("table_id", tableId, "rows", out);
    }

    private Map<String, Object> updateRows(long tableId, List<Pair<Row>> rows) {
        requireTable(tableId);
        List<Object> out = new ArrayList<>();
        for (Pair<Row> r : rows) {
            out.add(body("before_image", body("values", RowValues.image(r.getBefore())),
                "after_image", body("values", RowValues.image(r.getAfter()))));
        }
        return body("table_id", tableId, "rows", out);
    }
}
