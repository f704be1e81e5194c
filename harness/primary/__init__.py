"""The replication primary (`python -m harness serve`): serves binlog files to real replication
clients over the MySQL/MariaDB protocol. docs/primary.md says what it answers and refuses."""
