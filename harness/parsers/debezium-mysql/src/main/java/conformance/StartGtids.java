package conformance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/** The GTID position of the request's start, for the MariaDB connector's seeded offset.
 *
 * Debezium's MariaDB connector always streams by GTID (`MariaDbConnection.isGtidModeEnabled` is
 * true): an offset without `gtids` makes it call `BinaryLogClient.setGtidSet("")`, which turns
 * GTID mode on without a set, and the dump fails with a NullPointerException
 * (docs/findings-debezium-mariadb.md, DM1). So the offset carries what MariaDB itself says the
 * GTID position of that place is, `SELECT BINLOG_GTID_POS(file, pos)`, asked over MariaDB's own
 * JDBC driver (the connector's). The MySQL connector dumps by file and position
 * (gtid.ignore.on.recovery): none is asked. */
final class StartGtids {
    private StartGtids() {}

    /** The position, or null where there is none to give (the MySQL connector; no GTID before the start). */
    static String of(Map<String, Object> source) throws SQLException {
        if (!"mariadb".equals(Connector.CURRENT.type())) return null;
        String url = "jdbc:mariadb://" + source.get("host") + ":" + StreamRequest.number(source, "port") + "/";
        String file = ((String) source.get("file")).replace("\\", "\\\\").replace("'", "\\'");
        try (Connection c = DriverManager.getConnection(url, (String) source.get("user"), (String) source.get("password"));
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT BINLOG_GTID_POS('" + file + "', "
                 + StreamRequest.number(source, "start_position") + ")")) {
            String position = r.next() ? r.getString(1) : null;
            return position == null || position.isEmpty() ? null : position;
        }
    }
}
