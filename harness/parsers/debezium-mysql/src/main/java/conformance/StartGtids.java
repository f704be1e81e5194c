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
 * (docs/findings/debezium-mariadb.md, DM1). So the offset carries what MariaDB itself says the
 * GTID position of that place is, `SELECT BINLOG_GTID_POS(file, pos)`, asked over MariaDB's own
 * JDBC driver (the connector's). The MySQL connector dumps by file and position
 * (gtid.ignore.on.recovery): none is asked. */
final class StartGtids {
    private StartGtids() {}

    /** The position, or null where there is none to give: the MySQL connector, a server that is
     * not MariaDB (the connector meets it without a GTID, as it would), no GTID before the start. */
    static String of(Map<String, Object> source) throws SQLException {
        if (!"mariadb".equals(Connector.CURRENT.type())) return null;
        // allowPublicKeyRetrieval: a MySQL 8+ server's caching_sha2_password over plain TCP
        String url = "jdbc:mariadb://" + source.get("host") + ":" + StreamRequest.number(source, "port")
            + "/?allowPublicKeyRetrieval=true";
        String file = ((String) source.get("file")).replace("\\", "\\\\").replace("'", "\\'");
        try (Connection c = DriverManager.getConnection(url, (String) source.get("user"), (String) source.get("password"));
             Statement s = c.createStatement()) {
            if (!first(s, "SELECT VERSION()").contains("MariaDB")) return null;
            String position = first(s, "SELECT BINLOG_GTID_POS('" + file + "', "
                + StreamRequest.number(source, "start_position") + ")");
            return position.isEmpty() ? null : position;
        }
    }

    private static String first(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            String v = r.next() ? r.getString(1) : null;
            return v == null ? "" : v;
        }
    }
}
