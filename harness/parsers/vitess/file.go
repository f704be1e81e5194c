package main

// vitess-file: the library has no file reader (VReplication reads binlogs only from a
// replication connection), so the adapter does what a user with a file must: check the magic,
// then cut the file into events by the event_length of each header, and hand each buffer to
// mysql.NewMysql56BinlogEvent, or NewMariadbBinlogEvent for a file MariaDB wrote (as a user who
// knows which server wrote it picks the flavor). Everything after the cut is the library's.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	"vitess.io/vitess/go/mysql"
)

var binlogMagic = []byte{0xfe, 'b', 'i', 'n'}

const (
	fixedHeaderLen = 19
	lengthOffset   = 9
)

type FileTestee struct{}

func (FileTestee) Name() string { return "vitess-file" }

func (FileTestee) Parse(req request) ([]Event, error) {
	data, err := os.ReadFile(req.Path)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, binlogMagic) {
		return nil, rejectAt("BadMagic", 0, "not a binlog file")
	}
	newEvent := eventConstructor(data)
	d := newDecoder()
	var events []Event
	delivering(&events)
	for pos := int64(len(binlogMagic)); pos < int64(len(data)); {
		rest := data[pos:]
		if len(rest) < fixedHeaderLen {
			return events, rejectAt("TruncatedEvent", pos, fmt.Sprintf("event header needs %d bytes, %d left", fixedHeaderLen, len(rest)))
		}
		length := int64(binary.LittleEndian.Uint32(rest[lengthOffset:]))
		if length > int64(len(rest)) {
			return events, rejectAt("TruncatedEvent", pos, fmt.Sprintf("event of %d bytes, %d left", length, len(rest)))
		}
		if length < fixedHeaderLen {
			length = int64(len(rest)) // the library's IsValid judges a buffer whose length lies
		}
		event, err := d.top(pos, newEvent(rest[:length]))
		if err != nil {
			return events, libraryRejection(err, pos)
		}
		events = append(events, event)
		pos += length
	}
	return events, nil
}

// eventConstructor: MariaDB's event type when the first event's server version says MariaDB.
func eventConstructor(data []byte) func([]byte) mysql.BinlogEvent {
	head := data[:min(len(data), 4+fixedHeaderLen+2+50)]
	if bytes.Contains(head, []byte("MariaDB")) {
		return mysql.NewMariadbBinlogEvent
	}
	return mysql.NewMysql56BinlogEvent
}

// libraryRejection: the library's error for the event at `offset`, by what its message says.
func libraryRejection(err error, offset int64) *Rejection {
	kind := "LibraryError"
	msg := err.Error()
	for _, k := range errorKinds {
		if bytes.Contains([]byte(msg), []byte(k.marker)) {
			kind = k.kind
			break
		}
	}
	return rejectAt(kind, offset, msg)
}

var errorKinds = []struct{ marker, kind string }{
	{"IsValid is false", "InvalidEvent"},
	{"before FORMAT_DESCRIPTION_EVENT", "MissingFormatDescription"},
	{"FORMAT_DESCRIPTION_EVENT", "BadFormatDescription"},
	{"checksum", "ChecksumError"},
}
