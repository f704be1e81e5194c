// probe runs go-mysql alone, without the harness or its adapter, to show the library's own
// behaviour against a real server (tests/test_go_mysql_live.py). It prints one JSON line per
// event with the fields of the library's structs a check needs, then `{"error": ...}` if the
// library returned one. A panic of the library is left to end the process.
//
//	probe file PATH [verify]                  BinlogParser.ParseFile, VerifyChecksum as asked
//	probe stream HOST PORT USER PASS FILE POS FLAVOR [lag]
//	                                          BinlogSyncer + GetEvent; with "lag", the reader
//	                                          starts late and DumpEvents counts what was left
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"
)

func main() {
	switch os.Args[1] {
	case "file":
		parseFile(os.Args[2], len(os.Args) > 3 && os.Args[3] == "verify")
	case "stream":
		stream(os.Args[2:])
	}
}

func emit(v map[string]any) {
	b, _ := json.Marshal(v)
	fmt.Println(string(b))
}

func describe(ev *replication.BinlogEvent) map[string]any {
	out := map[string]any{"type": int(ev.Header.EventType), "log_pos": ev.Header.LogPos,
		"flags": ev.Header.Flags, "class": fmt.Sprintf("%T", ev.Event)}
	switch e := ev.Event.(type) {
	case *replication.TransactionPayloadEvent:
		out["size"], out["uncompressed_size"], out["payload_len"] = e.Size, e.UncompressedSize, len(e.Payload)
		inner := []map[string]any{}
		for _, i := range e.Events {
			inner = append(inner, describe(i))
		}
		out["events"] = inner
	case *replication.RowsEvent:
		rows := [][]string{}
		for _, r := range e.Rows {
			cells := []string{}
			for _, c := range r {
				cells = append(cells, fmt.Sprint(c))
			}
			rows = append(rows, cells)
		}
		out["rows"] = rows
	case *replication.QueryEvent:
		out["query"] = string(e.Query)
	}
	return out
}

func parseFile(path string, verify bool) {
	p := replication.NewBinlogParser()
	p.SetVerifyChecksum(verify)
	p.SetUseDecimal(true)
	p.SetRenderJSONAsMySQLText(true)
	err := p.ParseFile(path, 0, func(ev *replication.BinlogEvent) error {
		emit(describe(ev))
		return nil
	})
	if err != nil {
		emit(map[string]any{"error": err.Error()})
	}
}

func stream(a []string) {
	port, _ := strconv.Atoi(a[1])
	pos, _ := strconv.Atoi(a[5])
	lag := len(a) > 7 && a[7] == "lag"
	cfg := replication.BinlogSyncerConfig{ServerID: 4711, Flavor: a[6], Host: a[0], Port: uint16(port),
		User: a[2], Password: a[3], UseDecimal: true, VerifyChecksum: true,
		TimestampStringLocation: time.UTC, RenderJSONAsMySQLText: true, DisableRetrySync: true,
		ReadTimeout: time.Second}
	if a[6] == mysql.MariaDBFlavor {
		cfg.DumpCommandFlag |= replication.BINLOG_SEND_ANNOTATE_ROWS_EVENT
	}
	syncer := replication.NewBinlogSyncer(cfg)
	defer syncer.Close()
	streamer, err := syncer.StartSync(mysql.Position{Name: a[4], Pos: uint32(pos)})
	if err != nil {
		emit(map[string]any{"error": err.Error()})
		return
	}
	if lag {
		time.Sleep(3 * time.Second) // every event queued, then the read timeout's error
	}
	for {
		ev, err := streamer.GetEvent(context.Background())
		if err != nil {
			emit(map[string]any{"error": err.Error(), "left_in_queue": len(streamer.DumpEvents())})
			return
		}
		emit(describe(ev))
	}
}
