package conformance;

import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventType;

import java.util.EnumSet;
import java.util.Map;

/** The type codes behind the library's EventType names (its enum keeps them private). A code the
 * library does not know reaches the user as UNKNOWN, i.e. 0: that is what is reported. */
final class EventTypes {
    private static final Map<String, Integer> CODES = Map.ofEntries(
        Map.entry("UNKNOWN", 0), Map.entry("START_V3", 1), Map.entry("QUERY", 2), Map.entry("STOP", 3),
        Map.entry("ROTATE", 4), Map.entry("INTVAR", 5), Map.entry("LOAD", 6), Map.entry("SLAVE", 7),
        Map.entry("CREATE_FILE", 8), Map.entry("APPEND_BLOCK", 9), Map.entry("EXEC_LOAD", 10),
        Map.entry("DELETE_FILE", 11), Map.entry("NEW_LOAD", 12), Map.entry("RAND", 13), Map.entry("USER_VAR", 14),
        Map.entry("FORMAT_DESCRIPTION", 15), Map.entry("XID", 16), Map.entry("BEGIN_LOAD_QUERY", 17),
        Map.entry("EXECUTE_LOAD_QUERY", 18), Map.entry("TABLE_MAP", 19), Map.entry("PRE_GA_WRITE_ROWS", 20),
        Map.entry("PRE_GA_UPDATE_ROWS", 21), Map.entry("PRE_GA_DELETE_ROWS", 22), Map.entry("WRITE_ROWS", 23),
        Map.entry("UPDATE_ROWS", 24), Map.entry("DELETE_ROWS", 25), Map.entry("INCIDENT", 26),
        Map.entry("HEARTBEAT", 27), Map.entry("IGNORABLE", 28), Map.entry("ROWS_QUERY", 29),
        Map.entry("EXT_WRITE_ROWS", 30), Map.entry("EXT_UPDATE_ROWS", 31), Map.entry("EXT_DELETE_ROWS", 32),
        Map.entry("GTID", 33), Map.entry("ANONYMOUS_GTID", 34), Map.entry("PREVIOUS_GTIDS", 35),
        Map.entry("TRANSACTION_CONTEXT", 36), Map.entry("VIEW_CHANGE", 37), Map.entry("XA_PREPARE", 38),
        Map.entry("PARTIAL_UPDATE_ROWS_EVENT", 39), Map.entry("TRANSACTION_PAYLOAD", 40), Map.entry("HEARTBEAT_V2", 41), Map.entry("GTID_TAGGED", 42),
        Map.entry("ANNOTATE_ROWS", 160), Map.entry("BINLOG_CHECKPOINT", 161), Map.entry("MARIADB_GTID", 162),
        Map.entry("MARIADB_GTID_LIST", 163));

    /** The canonical name of each of the library's EventType names (UNKNOWN has none). */
    private static final Map<String, String> CANONICAL = Map.ofEntries(
        Map.entry("START_V3", "START_EVENT_V3"), Map.entry("QUERY", "QUERY_EVENT"), Map.entry("STOP", "STOP_EVENT"),
        Map.entry("ROTATE", "ROTATE_EVENT"), Map.entry("INTVAR", "INTVAR_EVENT"), Map.entry("LOAD", "LOAD_EVENT"),
        Map.entry("SLAVE", "SLAVE_EVENT"), Map.entry("CREATE_FILE", "CREATE_FILE_EVENT"),
        Map.entry("APPEND_BLOCK", "APPEND_BLOCK_EVENT"), Map.entry("EXEC_LOAD", "EXEC_LOAD_EVENT"),
        Map.entry("DELETE_FILE", "DELETE_FILE_EVENT"), Map.entry("NEW_LOAD", "NEW_LOAD_EVENT"),
        Map.entry("RAND", "RAND_EVENT"), Map.entry("USER_VAR", "USER_VAR_EVENT"),
        Map.entry("FORMAT_DESCRIPTION", "FORMAT_DESCRIPTION_EVENT"), Map.entry("XID", "XID_EVENT"),
        Map.entry("BEGIN_LOAD_QUERY", "BEGIN_LOAD_QUERY_EVENT"), Map.entry("EXECUTE_LOAD_QUERY", "EXECUTE_LOAD_QUERY_EVENT"),
        Map.entry("TABLE_MAP", "TABLE_MAP_EVENT"), Map.entry("PRE_GA_WRITE_ROWS", "PRE_GA_WRITE_ROWS_EVENT"),
        Map.entry("PRE_GA_UPDATE_ROWS", "PRE_GA_UPDATE_ROWS_EVENT"), Map.entry("PRE_GA_DELETE_ROWS", "PRE_GA_DELETE_ROWS_EVENT"),
        Map.entry("WRITE_ROWS", "WRITE_ROWS_EVENT_V1"), Map.entry("UPDATE_ROWS", "UPDATE_ROWS_EVENT_V1"),
        Map.entry("DELETE_ROWS", "DELETE_ROWS_EVENT_V1"), Map.entry("INCIDENT", "INCIDENT_EVENT"),
        Map.entry("HEARTBEAT", "HEARTBEAT_LOG_EVENT"), Map.entry("IGNORABLE", "IGNORABLE_LOG_EVENT"),
        Map.entry("ROWS_QUERY", "ROWS_QUERY_LOG_EVENT"), Map.entry("EXT_WRITE_ROWS", "WRITE_ROWS_EVENT"),
        Map.entry("EXT_UPDATE_ROWS", "UPDATE_ROWS_EVENT"), Map.entry("EXT_DELETE_ROWS", "DELETE_ROWS_EVENT"),
        Map.entry("GTID", "GTID_LOG_EVENT"), Map.entry("ANONYMOUS_GTID", "ANONYMOUS_GTID_LOG_EVENT"),
        Map.entry("PREVIOUS_GTIDS", "PREVIOUS_GTIDS_LOG_EVENT"), Map.entry("TRANSACTION_CONTEXT", "TRANSACTION_CONTEXT_EVENT"),
        Map.entry("VIEW_CHANGE", "VIEW_CHANGE_EVENT"), Map.entry("XA_PREPARE", "XA_PREPARE_LOG_EVENT"),
        Map.entry("PARTIAL_UPDATE_ROWS_EVENT", "PARTIAL_UPDATE_ROWS_EVENT"),
        Map.entry("TRANSACTION_PAYLOAD", "TRANSACTION_PAYLOAD_EVENT"), Map.entry("HEARTBEAT_V2", "HEARTBEAT_LOG_EVENT_V2"),
        Map.entry("GTID_TAGGED", "GTID_TAGGED_LOG_EVENT"), Map.entry("ANNOTATE_ROWS", "ANNOTATE_ROWS_EVENT"),
        Map.entry("BINLOG_CHECKPOINT", "BINLOG_CHECKPOINT_EVENT"), Map.entry("MARIADB_GTID", "GTID_EVENT"),
        Map.entry("MARIADB_GTID_LIST", "GTID_LIST_EVENT"));

    /** The library's rows event types, whose events carry nothing without their data. */
    static final EnumSet<EventType> ROWS = EnumSet.noneOf(EventType.class);

    static final EnumSet<EventType> WRITES = of("PRE_GA_WRITE_ROWS", "WRITE_ROWS", "EXT_WRITE_ROWS");
    static final EnumSet<EventType> UPDATES = of("PRE_GA_UPDATE_ROWS", "UPDATE_ROWS", "EXT_UPDATE_ROWS");
    static final EnumSet<EventType> DELETES = of("PRE_GA_DELETE_ROWS", "DELETE_ROWS", "EXT_DELETE_ROWS");

    static {
        ROWS.addAll(WRITES);
        ROWS.addAll(UPDATES);
        ROWS.addAll(DELETES);
        for (EventType t : EventType.values()) if (t.name().startsWith("PARTIAL_UPDATE_ROWS")) ROWS.add(t);
    }

    private EventTypes() {}

    /** The event's canonical type name as the library names it (its EventType), or null where it
     * cannot: UNKNOWN (a code it does not know), or a rows event whose data it did not deliver
     * (a type it names but has no deserializer for: its EventData is null). Never the header byte. */
    static String canonical(EventType t, EventData data) {
        if (data == null && ROWS.contains(t)) return null;
        return CANONICAL.get(t.name());
    }

    private static EnumSet<EventType> of(String... names) {
        EnumSet<EventType> s = EnumSet.noneOf(EventType.class);
        for (String n : names) s.add(EventType.valueOf(n));
        return s;
    }

    static int code(EventType t) {
        Integer c = CODES.get(t.name());
        if (c == null) throw new IllegalStateException("no type code known for the library's EventType." + t);
        return c;
    }
}
