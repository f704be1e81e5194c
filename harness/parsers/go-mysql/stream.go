package main

// go-mysql: replication.BinlogSyncer dumping the case's binlog from the harness's primary, read
// with BinlogStreamer.GetEvent as gh-ost, TiDB DM and PeerDB read it. The flavor comes from the
// server's version (SELECT VERSION(), as gh-ost's FlavorFor does). The request ends at
// end_file/end_position, and the syncer is closed before the next request.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"
)

const (
	logEventArtificial = 0x20
	heartbeatV1        = 27
	heartbeatV2        = 41
)

type StreamTestee struct{}

func (StreamTestee) Name() string { return "go-mysql" }

func (StreamTestee) Parse(req request) ([]Event, error) {
	src := req.Stream
	if src == nil {
		return nil, skip("go-mysql reads from a primary; for files: go-mysql-file")
	}
	flavor, err := serverFlavor(src)
	if err != nil {
		return nil, &Rejection{Kind: "ConnectError", Message: err.Error()}
	}
	cfg := syncerConfig(src, flavor)
	if src.Mode == modeHeartbeats {
		// BinlogSyncerConfig.HeartbeatPeriod sets @master/@source_heartbeat_period; on MySQL the
		// library's documented USE_HEARTBEAT_EVENT_V2 dump flag asks for v2 (8.0.26+ sends it)
		cfg.HeartbeatPeriod = time.Duration(src.HeartbeatPeriod * float64(time.Second))
		if flavor == mysql.MySQLFlavor {
			cfg.DumpCommandFlag |= replication.USE_HEARTBEAT_EVENT_V2
		}
	}
	syncer := replication.NewBinlogSyncer(cfg)
	defer syncer.Close()
	streamer, err := startSync(syncer, src, flavor)
	if err != nil {
		return nil, &Rejection{Kind: "StartSyncError", Message: err.Error()}
	}
	return readUntilEnd(streamer, src)
}

const (
	modeGtid       = "gtid"
	modeHeartbeats = "heartbeats"
)

// The stream modes the testee runs in, and why not the others (the library's documentation).
var streamModes = []string{"position", modeGtid, modeHeartbeats}
var streamModesUnsupported = map[string]string{
	"current": "BinlogSyncer has no way to find the current position: StartSync takes a " +
		"mysql.Position and StartSyncGTID a GTID set (replication/binlogsyncer.go); the status query " +
		"is canal's GetMasterPos, which go-mysql-js and go-mysql-binlog-node run",
}

// startSync: StartSync at the file and position, or StartSyncGTID from the request's GTID set
// parsed as the flavor's (mysql.ParseGTIDSet: MySQL's uuid:interval set, MariaDB's D-S-N list).
func startSync(syncer *replication.BinlogSyncer, src *StreamSource, flavor string) (*replication.BinlogStreamer, error) {
	if src.Mode != modeGtid {
		return syncer.StartSync(mysql.Position{Name: src.File, Pos: src.StartPosition})
	}
	gset, err := mysql.ParseGTIDSet(flavor, src.GtidSet)
	if err != nil {
		return nil, fmt.Errorf("ParseGTIDSet(%q): %w", src.GtidSet, err)
	}
	return syncer.StartSyncGTID(gset)
}

func serverFlavor(src *StreamSource) (string, error) {
	conn, err := client.Connect(fmt.Sprintf("%s:%d", src.Host, src.Port), src.User, src.Password, "")
	if err != nil {
		return "", err
	}
	defer conn.Close()
	res, err := conn.Execute("SELECT VERSION()")
	if err != nil {
		return "", err
	}
	version, err := res.GetString(0, 0)
	if err != nil {
		return "", err
	}
	if strings.Contains(strings.ToLower(version), "mariadb") {
		return mysql.MariaDBFlavor, nil
	}
	return mysql.MySQLFlavor, nil
}

// position tracks where the stream is in the served files.
type position struct {
	file string
	end  int64 // where the last reported event ended
}

func readUntilEnd(streamer *replication.BinlogStreamer, src *StreamSource) ([]Event, error) {
	var events []Event
	delivering(&events)
	at := position{file: src.File, end: int64(src.StartPosition)}
	for {
		ev, err := streamer.GetEvent(context.Background())
		if err != nil {
			// GetEvent selects at random between queued events and the error (binlogstreamer.go):
			// the events still queued came before the error, and DumpEvents hands them over.
			for _, queued := range streamer.DumpEvents() {
				if done := report(&events, &at, queued, src); done {
					break
				}
			}
			if src.EndPosition == 0 && isReadTimeout(err) {
				return events, nil // the end of a stream whose end was unknown: the primary is silent
			}
			return events, streamRejection(err, at.end)
		}
		if done := report(&events, &at, ev, src); done {
			return events, nil
		}
	}
}

// report adds one event unless the sender made it up; true once the end of the stream is reached.
func report(events *[]Event, at *position, ev *replication.BinlogEvent, src *StreamSource) bool {
	h := ev.Header
	if hb, ok := ev.Event.(*replication.HeartbeatEvent); ok && src.Mode == modeHeartbeats {
		*events = append(*events, heartbeat(h, hb))
		return false
	}
	if !fromFile(h) {
		return false
	}
	pos := int64(h.LogPos) - int64(h.EventSize)
	canon := canonical(pos, ev)
	if h.LogPos == 0 { // MariaDB 11 writes log_pos 0 inside transactions
		pos = at.end
		canon["position"] = pos
		canon["_undetermined"] = []string{"position"}
	}
	*events = append(*events, canon)
	at.end = pos + int64(h.EventSize)
	if src.EndPosition != 0 && at.file == src.EndFile && at.end >= int64(src.EndPosition) {
		return true
	}
	if rotate, ok := ev.Event.(*replication.RotateEvent); ok {
		at.file = string(rotate.NextLogName)
	}
	return false
}

// fromFile: not the artificial Rotate a dump starts with, the Format_description resent with
// log_pos 0, nor a heartbeat.
func fromFile(h *replication.EventHeader) bool {
	resent := (h.EventType == replication.ROTATE_EVENT || h.EventType == replication.FORMAT_DESCRIPTION_EVENT) && h.LogPos == 0
	heartbeat := h.EventType == heartbeatV1 || h.EventType == heartbeatV2
	return h.Flags&logEventArtificial == 0 && !resent && !heartbeat
}

// heartbeat: a HeartbeatEvent as the library decodes it (Version, Filename, Offset), typed by
// its Version; v1 carries no position in its body (the header's log_pos names it).
func heartbeat(h *replication.EventHeader, hb *replication.HeartbeatEvent) Event {
	out := Event{"event_size": h.EventSize, "next_position": h.LogPos, "type_code": uint8(h.EventType),
		"server_id": h.ServerID, "timestamp": h.Timestamp, "flags": map[string]any{"value": h.Flags},
		"library_type": fmt.Sprintf("HeartbeatEvent{Version: %d}", hb.Version)}
	if hb.Version == 2 {
		out["type"] = "HEARTBEAT_LOG_EVENT_V2"
		out["body"] = map[string]any{"log_filename": hb.Filename, "log_position": hb.Offset}
	} else {
		out["type"] = "HEARTBEAT_LOG_EVENT"
		out["body"] = map[string]any{"log_ident": hb.Filename}
	}
	return out
}

func streamRejection(err error, offset int64) *Rejection {
	var myErr *mysql.MyError
	if errors.As(err, &myErr) {
		return &Rejection{Kind: "ReplicationError", Offset: &offset, Message: err.Error()}
	}
	return libraryRejection(err, offset)
}

// isReadTimeout: the connection's read deadline (ReadTimeout) passed; the library wraps the
// net.Error, so its message is what is left to look at.
func isReadTimeout(err error) bool {
	var netErr net.Error
	return (errors.As(err, &netErr) && netErr.Timeout()) || strings.Contains(err.Error(), "i/o timeout")
}
