package main

// The library's configuration, as its best-known users fill it (docs/findings.md, "go-mysql":
// the configuration and why). gh-ost (go/binlog/gomysql_reader.go) and TiDB DM's syncer both set
// UseDecimal and a TimestampStringLocation; DM also sets VerifyChecksum; both leave ParseTime and
// RawModeEnabled off and take the flavor from the server; Spirit asks a MariaDB primary for its
// Annotate_rows events. Added for the harness: the JSON text
// option (the default json.Marshal rendering is documented as lossy), no retries (one dump per
// request), and a read timeout so a silent primary ends the request.

import (
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"
)

// A primary that sends nothing for this long has nothing more to send: a stream whose end is
// unknown (a file the oracle rejects, which the primary may serve to its end and then wait)
// ends there, with the library's read timeout as its error. No heartbeats are asked for (gh-ost
// and DM ask for none), so a waiting primary stays silent; stream mode heartbeats asks for them
// (stream.go).
const readTimeout = 10 * time.Second

func syncerConfig(src *StreamSource, flavor string) replication.BinlogSyncerConfig {
	cfg := replication.BinlogSyncerConfig{
		ServerID:                rand.Uint32N(0x7FFF0000) + 0x10000,
		Flavor:                  flavor,
		Host:                    src.Host,
		Port:                    src.Port,
		User:                    src.User,
		Password:                src.Password,
		UseDecimal:              true,
		VerifyChecksum:          true,
		TimestampStringLocation: time.UTC,
		RenderJSONAsMySQLText:   true,
		ReadTimeout:             readTimeout,
		DisableRetrySync:        true,
		Logger:                  quietLogger(),
	}
	if flavor == mysql.MariaDBFlavor {
		// a MariaDB primary sends Annotate_rows only to a dump that asks for them (the
		// library's documented flag; Spirit's syncer sets it for MariaDB too)
		cfg.DumpCommandFlag |= replication.BINLOG_SEND_ANNOTATE_ROWS_EVENT
	}
	return cfg
}

// newFileParser: the same decoding options on BinlogParser, which ParseFile/ParseReader use.
func newFileParser(flavor string) *replication.BinlogParser {
	p := replication.NewBinlogParser()
	p.SetFlavor(flavor)
	p.SetUseDecimal(true)
	p.SetVerifyChecksum(true)
	p.SetTimestampStringLocation(time.UTC)
	p.SetRenderJSONAsMySQLText(true)
	return p
}

// quietLogger keeps the syncer's info lines (one per connect and rotate) out of the harness log;
// warnings and errors go to stderr.
func quietLogger() *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
}
