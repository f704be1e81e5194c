"""Wire faults (issue 13, item 5): a catalogue of faults the replication primary injects into a
COM_BINLOG_DUMP stream, each with its expectation, and a runner that gives each stream client a
verdict per fault. See docs/wire-faults.md."""
