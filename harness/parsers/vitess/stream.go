package main

// vitess: the replication client of go/mysql against the harness's primary, as VReplication's
// binlog connection (go/vt/binlog.BinlogConnection) drives it: mysql.Connect, then the
// statement connectForReplication runs (SET @source_binlog_checksum / @master_binlog_checksum to
// the server's binlog_checksum), then the dump and Conn.ReadBinlogEvent in a loop (its
// streamEvents). vstreamer starts from a GTID position (SendBinlogDumpGTIDCommand): the stream
// modes gtid and current do that (dumpFromGTIDs); in position mode the harness gives a file and
// position, so the dump is the flavor's file-position command, Conn.SendBinlogDumpCommand
// (COM_BINLOG_DUMP, what BinlogConnection's StartBinlogDumpFromBinlogBeforeTimestamp sends). go/vt/binlog itself is not imported: it
// pulls Vitess's topology and vindex packages for its other parts. The flavor, and so
// NewMysql56BinlogEvent or NewMariadbBinlogEvent, is the one Conn picks from the server's
// version. On MariaDB the session first sets @mariadb_slave_capability=4, as the flavor's GTID
// dump does. Each event goes through the same decoder as vitess-file.

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"vitess.io/vitess/go/mysql"
	"vitess.io/vitess/go/mysql/replication"
	"vitess.io/vitess/go/vt/vttls"
)

// A primary that sends nothing for this long has nothing more to send (a stream whose end is
// unknown ends there). The library has no read timeout of its own: as BinlogConnection.Close
// does, the adapter closes the connection to unblock the read.
const silence = 10 * time.Second

const (
	logEventArtificial = 0x20
	rotateTypeCode     = 4
	fdeTypeCode        = 15
)

type StreamTestee struct{}

func (StreamTestee) Name() string { return "vitess" }

func (StreamTestee) Parse(req request) ([]Event, error) {
	src := req.Stream
	if src == nil {
		return nil, skip("vitess reads from a primary; for files: vitess-file")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := mysql.Connect(ctx, &mysql.ConnParams{Host: src.Host, Port: int(src.Port), Uname: src.User,
		Pass: src.Password, SslMode: vttls.Disabled})
	if err != nil {
		return nil, &Rejection{Kind: "ConnectError", Message: err.Error()}
	}
	defer conn.Close()
	if _, err := conn.ExecuteFetch("SET @source_binlog_checksum = @@global.binlog_checksum, @master_binlog_checksum=@@global.binlog_checksum", 0, false); err != nil {
		return nil, &Rejection{Kind: "ConnectError", Message: err.Error()}
	}
	serverID := rand.Uint32N(0x7FFF0000) + 0x10000
	if src.Mode == modeGtid || src.Mode == modeCurrent {
		if rejection := dumpFromGTIDs(conn, serverID, src); rejection != nil {
			return nil, rejection
		}
		return readUntilEnd(conn, src)
	}
	if conn.IsMariaDB() {
		// vstreamer's dump on MariaDB (mariadbFlavor.sendBinlogDumpGTIDCommand) tells the server it
		// understands GTID events first; without it MariaDB replaces them with older events
		if _, err := conn.ExecuteFetch("SET @mariadb_slave_capability=4", 0, false); err != nil {
			return nil, &Rejection{Kind: "ConnectError", Message: err.Error()}
		}
	}
	if err := conn.SendBinlogDumpCommand(serverID, src.File, src.StartPosition); err != nil {
		return nil, &Rejection{Kind: "DumpError", Message: err.Error()}
	}
	return readUntilEnd(conn, src)
}

const (
	modeGtid    = "gtid"
	modeCurrent = "current"
)

// streamModes: vstreamer starts from a GTID position (BinlogConnection.StartBinlogDumpFromPosition)
// or from the primary's (StartBinlogDumpFromCurrent: Conn.PrimaryPosition, then the same dump).
var streamModes = []string{"position", modeGtid, modeCurrent}
var streamModesUnsupported = map[string]string{
	"heartbeats": "Vitess never asks the server for heartbeats: neither go/vt/binlog's BinlogConnection nor " +
		"go/mysql's Conn sets @master_heartbeat_period / @source_heartbeat_period, so a server sends it none; " +
		"VStream's heartbeats come from vstreamer's own timer (HeartbeatTime, 900 ms), not from the binlog",
}

// dumpFromGTIDs: the dump BinlogConnection sends. gtid: from the set the harness computed, parsed
// as vstreamer parses a position (replication.ParsePosition with the connection's flavor);
// current: from Conn.PrimaryPosition (@@global.gtid_executed, MariaDB's @@GLOBAL.gtid_binlog_pos).
// Then SendBinlogDumpGTIDCommand(serverID, "", 4, position, 0): COM_BINLOG_DUMP_GTID on MySQL,
// @slave_connect_state and COM_BINLOG_DUMP on MariaDB (the flavor does both).
func dumpFromGTIDs(conn *mysql.Conn, serverID uint32, src *StreamSource) *Rejection {
	var pos replication.Position
	var err error
	if src.Mode == modeCurrent {
		pos, err = conn.PrimaryPosition()
	} else {
		flavor := replication.Mysql56FlavorID
		if conn.IsMariaDB() {
			flavor = replication.MariadbFlavorID
		}
		pos, err = replication.ParsePosition(flavor, src.GtidSet)
	}
	if err != nil {
		return &Rejection{Kind: "GtidError", Message: err.Error()}
	}
	if err := conn.SendBinlogDumpGTIDCommand(serverID, "", 4, pos, 0); err != nil {
		return &Rejection{Kind: "DumpError", Message: err.Error()}
	}
	return nil
}

// position tracks where the stream is in the served files.
type position struct {
	file string
	end  int64 // where the last reported event ended
}

func readUntilEnd(conn *mysql.Conn, src *StreamSource) ([]Event, error) {
	var events []Event
	delivering(&events)
	at := position{file: src.File, end: int64(src.StartPosition)}
	d := newDecoder()
	for {
		ev, err := readWithin(conn, silence)
		if err == errSilent && src.EndPosition == 0 {
			return events, nil // the end of a stream whose end was unknown: the primary is silent
		}
		if err != nil {
			return events, rejectAt("ReplicationError", at.end, err.Error())
		}
		fromFile := isFromFile(ev)
		pos := int64(ev.NextPosition()) - int64(len(ev.Bytes()))
		if ev.NextPosition() == 0 { // MariaDB 11 writes log_pos 0 inside transactions
			pos = at.end
		}
		event, err := d.top(pos, ev)
		if err != nil {
			return events, libraryRejection(err, at.end)
		}
		if !fromFile {
			continue
		}
		if ev.NextPosition() == 0 {
			event["_undetermined"] = []string{"position"}
		}
		events = append(events, event)
		at.end = pos + int64(len(ev.Bytes()))
		if src.EndPosition != 0 && at.file == src.EndFile && at.end >= int64(src.EndPosition) {
			return events, nil
		}
		if next, ok := rotatedTo(ev, d.format); ok {
			at.file = next
		}
	}
}

var errSilent = fmt.Errorf("the primary sent nothing for %s", silence)

// readWithin: Conn.ReadBinlogEvent, or errSilent once the primary was silent for `limit` (the
// connection is then closed, which ends the blocked read).
func readWithin(conn *mysql.Conn, limit time.Duration) (mysql.BinlogEvent, error) {
	type result struct {
		ev  mysql.BinlogEvent
		err error
	}
	done := make(chan result, 1)
	go func() {
		ev, err := conn.ReadBinlogEvent()
		done <- result{ev, err}
	}()
	select {
	case r := <-done:
		return r.ev, r.err
	case <-time.After(limit):
		conn.Close()
		<-done
		return nil, errSilent
	}
}

// isFromFile: not the artificial Rotate a dump starts with, the Format_description resent with
// log_pos 0, nor a heartbeat.
func isFromFile(ev mysql.BinlogEvent) bool {
	if !ev.IsValid() {
		return true // the decoder refuses it
	}
	h := ev.(header)
	resent := (h.Type() == rotateTypeCode || h.Type() == fdeTypeCode) && ev.NextPosition() == 0
	return h.Flags()&logEventArtificial == 0 && !resent && !ev.IsHeartbeat()
}

// rotatedTo: the file a Rotate from the file names, read by the adapter for its own stop rule
// only (the library's NextLogFile is what the event reports; it drops the name's last four bytes
// after StripChecksum, docs/findings/vitess.md).
func rotatedTo(ev mysql.BinlogEvent, f mysql.BinlogFormat) (string, bool) {
	if !ev.IsRotate() {
		return "", false
	}
	data := ev.Bytes()
	end := len(data)
	if f.ChecksumAlgorithm == mysql.BinlogChecksumAlgCRC32 {
		end -= 4
	}
	start := int(f.HeaderLength) + 8
	if start > end {
		return "", false
	}
	return string(data[start:end]), true
}
