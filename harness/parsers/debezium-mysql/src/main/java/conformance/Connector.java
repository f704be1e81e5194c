package conformance;

import java.io.IOException;
import java.util.Properties;

/** Which of Debezium's binlog connectors this build runs, from adapter.properties (filled by the
 * folder's pom): debezium-mysql (`MySqlConnector`) and debezium-mariadb (`MariaDbConnector`)
 * share this adapter source (debezium-mariadb's src is a symlink to debezium-mysql's), as both
 * connectors share Debezium's binlog connector code. What differs: the connector class, its
 * metrics domain (`debezium.<type>`), its character set registry, and the `database.ssl.mode`
 * value that turns TLS off (MySQL's Connector/J says `disabled`, MariaDB's driver `disable`). */
record Connector(String name, String version, String connectorClass, String type, String charsetRegistry,
                 String sslDisabled) {
    static final Connector CURRENT = load();

    private static Connector load() {
        try {
            Properties p = Protocol.adapterProperties();
            return new Connector(p.getProperty("adapter.name"), p.getProperty("library.version"),
                p.getProperty("connector.class"), p.getProperty("connector.type"),
                p.getProperty("charset.registry"), p.getProperty("ssl.disabled"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
