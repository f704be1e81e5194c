package main

// GTID events as the library's GTID accessor returns them: a Mysql56GTID (server SID and
// sequence) with the commit-order fields, or a MariadbGTID (domain, server, sequence).

import (
	"vitess.io/vitess/go/mysql/replication"
)

func gtidBody(gtid replication.GTID, lastCommitted, sequenceNumber int64) map[string]any {
	switch g := gtid.(type) {
	case replication.Mysql56GTID:
		return map[string]any{"sid": g.Server.String(), "gno": signed(g.Sequence), "gtid": g.String(),
			"last_committed": signed(lastCommitted), "sequence_number": signed(sequenceNumber)}
	case replication.MariadbGTID:
		return map[string]any{"domain_id": g.Domain, "seq_no": unsigned(g.Sequence), "gtid": g.String()}
	}
	return map[string]any{"gtid": gtid.String()}
}
