package conformance;

import com.taobao.tddl.dbsync.binlog.LogEvent;
import com.taobao.tddl.dbsync.binlog.event.*;
import com.taobao.tddl.dbsync.binlog.event.mariadb.AnnotateRowsEvent;
import com.taobao.tddl.dbsync.binlog.event.mariadb.BinlogCheckPointLogEvent;
import com.taobao.tddl.dbsync.binlog.event.mariadb.MariaGtidLogEvent;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** One Canal LogEvent as a canonical event (docs/canonical-model.md): its LogHeader, and the
 * bodies of Capabilities by the event's class. Canal decodes names (schema, table, file) as
 * ISO-8859-1 and a query by its Q_CHARSET: each is encoded back with the same charset, so the
 * stored bytes are reported. Rows are read from the event's RowsLogBuffer by RowValues, with the
 * column types of the TableMapLogEvent the decoder attached to it (RowsLogEvent.getTable). */
final class Canonical {
    private static final Map<Class<?>, Function<LogEvent, Map<String, Object>>> BODIES = new HashMap<>();

    static {
        BODIES.put(QueryLogEvent.class, e -> query((QueryLogEvent) e));
        BODIES.put(RotateLogEvent.class, e -> body("pos", Values.unsignedLong(((RotateLogEvent) e).getPosition()),
            "new_log_ident", name(((RotateLogEvent) e).getFilename())));
        BODIES.put(XidLogEvent.class, e -> body("xid", Values.unsignedLong(((XidLogEvent) e).getXid())));
        BODIES.put(FormatDescriptionLogEvent.class, e -> formatDescription((FormatDescriptionLogEvent) e));
        BODIES.put(IntvarLogEvent.class, e -> body("type", ((IntvarLogEvent) e).getType(),
            "val", Values.unsignedLong(((IntvarLogEvent) e).getValue())));
        BODIES.put(TableMapLogEvent.class, e -> tableMap((TableMapLogEvent) e));
        BODIES.put(RowsQueryLogEvent.class, e -> body("rows_query", name(((RowsQueryLogEvent) e).getRowsQuery())));
        BODIES.put(AnnotateRowsEvent.class, e -> body("query", name(((AnnotateRowsEvent) e).getRowsQuery())));
        BODIES.put(GtidLogEvent.class, e -> gtid((GtidLogEvent) e));
        BODIES.put(MariaGtidLogEvent.class, e -> mariaGtid((MariaGtidLogEvent) e));
        BODIES.put(BinlogCheckPointLogEvent.class, e -> body("binlog_file_name",
            name(((BinlogCheckPointLogEvent) e).getFilename())));
        for (Class<?> c : List.of(WriteRowsLogEvent.class, UpdateRowsLogEvent.class, DeleteRowsLogEvent.class,
                com.taobao.tddl.dbsync.binlog.event.mariadb.WriteRowsCompressLogEvent.class,
                com.taobao.tddl.dbsync.binlog.event.mariadb.UpdateRowsCompressLogEvent.class,
                com.taobao.tddl.dbsync.binlog.event.mariadb.DeleteRowsCompressLogEvent.class)) {
            BODIES.put(c, e -> RowValues.rows((RowsLogEvent) e));
        }
    }

    private Canonical() {}

    /** The canonical event at `position` (the caller knows where the event starts). */
    static Map<String, Object> event(long position, LogEvent e) {
        LogHeader h = e.getHeader();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("position", position);
        out.put("event_size", h.getEventLen());
        out.put("next_position", h.getLogPos());
        out.put("type_code", h.getType());
        out.put("type", LibraryTypes.canonical(e, h.getType()));  // the library's class names it
        out.put("library_type", e.getClass().getSimpleName());
        out.put("server_id", h.getServerId());
        out.put("timestamp", h.getWhen());
        out.put("flags", body("value", h.getFlags()));
        var mapper = BODIES.get(e.getClass());
        Map<String, Object> body = mapper != null ? mapper.apply(e) : new LinkedHashMap<>();
        Object undetermined = body.remove(RowValues.UNDETERMINED);
        if (undetermined != null) out.put("_undetermined", undetermined);
        out.put("body", body);
        return out;
    }

    /** The events Canal's LogDecoder.processIterateDecode took out of a Transaction_payload,
     * placed as mysqlbinlog prints them (docs/canonical-model.md): at the end of the payload
     * event, with its log_pos. The library sets each inner header's event length to the
     * payload's (its comment: positions are acknowledged as logPos - eventLen), so the inner
     * event_size is not the library's to give. */
    static List<Object> nested(long payloadEnd, List<LogEvent> inner) {
        List<Object> out = new ArrayList<>();
        for (LogEvent e : inner) {
            Map<String, Object> c = event(payloadEnd, e);
            List<Object> undetermined = new ArrayList<>(List.of("event_size"));
            Object more = c.get("_undetermined");
            if (more instanceof List) undetermined.addAll((List<?>) more);
            c.put("_undetermined", undetermined);
            out.add(c);
        }
        return out;
    }

    static Map<String, Object> body(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    /** Text the library decoded as ISO-8859-1 (LogBuffer.getFixName/getFixString/getFullString: names, Rows_query, Annotate_rows): its bytes. */
    static Object name(String s) {
        return s == null ? null : Values.text(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Map<String, Object> query(QueryLogEvent q) {
        Charset cs = q.getCharset() != null ? q.getCharset() : StandardCharsets.ISO_8859_1;
        return body("thread_id", q.getSessionId(), "query_exec_time", q.getExecTime(), "error_code", q.getErrorCode(),
            "db", name(q.getDbName()), "query", q.getQuery() == null ? null : Values.text(q.getQuery().getBytes(cs)));
    }

    private static Map<String, Object> formatDescription(FormatDescriptionLogEvent d) {
        return body("binlog_version", d.getBinlogVersion(), "server_version", name(d.getServerVersion()),
            "common_header_len", d.getCommonHeaderLen());
    }

    private static Map<String, Object> gtid(GtidLogEvent g) {
        return body("gtid", g.getGtidStr(), "last_committed", g.getLastCommitted(),
            "sequence_number", g.getSequenceNumber());
    }

    /** MariaGtidLogEvent keeps only its MariaGtid, "domain-server-sequence". */
    private static Map<String, Object> mariaGtid(MariaGtidLogEvent g) {
        String[] parts = g.getGtidStr().split("-");
        return body("seq_no", Values.unsignedLong(Long.parseLong(parts[2])), "domain_id", Long.parseLong(parts[0]));
    }

    private static Map<String, Object> tableMap(TableMapLogEvent t) {
        List<Object> types = new ArrayList<>();
        for (TableMapLogEvent.ColumnInfo c : t.getColumnInfo()) types.add(c.type);
        return body("table_id", t.getTableId(), "schema", name(t.getDbName()), "table", name(t.getTableName()),
            "column_count", t.getColumnCnt(), "column_types", types);
    }
}
