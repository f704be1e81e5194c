"""The MySQL client/server wire protocol as the replication stream uses it: packet framing,
OK/ERR/EOF packets, length-encoded values, and the decoding of a captured dump stream."""
