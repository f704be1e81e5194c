package conformance;

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

    static final EnumSet<EventType> WRITES = of("PRE_GA_WRITE_ROWS", "WRITE_ROWS", "EXT_WRITE_ROWS");
    static final EnumSet<EventType> UPDATES = of("PRE_GA_UPDATE_ROWS", "UPDATE_ROWS", "EXT_UPDATE_ROWS");
    static final EnumSet<EventType> DELETES = of("PRE_GA_DELETE_ROWS", "DELETE_ROWS", "EXT_DELETE_ROWS");

    private EventTypes() {}

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
