// Package gofuzz holds the coverage-guided fuzz targets of go-mysql (issue 31): `go test -fuzz`
// instruments the library's packages, and each target runs one of its entry points on the
// fuzzer's bytes. Running, recovering and recording are go-fuzz-shared's (run.go, copied here at
// build).
package gofuzz

import (
	"bytes"
	"encoding/binary"
	"io"
	"time"

	"github.com/go-mysql-org/go-mysql/replication"
)

const libraryPrefix = "github.com/go-mysql-org/go-mysql/"

// Targets by name: the harness passes one with -fuzz=Fuzz<Name> and the replay command by name.
var Targets = map[string]func([]byte) error{
	"File":  ParseFile,
	"Event": ParseEvents,
}

func newParser(data []byte) *replication.BinlogParser {
	p := replication.NewBinlogParser()
	p.SetUseDecimal(true)
	p.SetVerifyChecksum(true)
	p.SetTimestampStringLocation(time.UTC)
	p.SetRenderJSONAsMySQLText(true)
	if bytes.Contains(data, []byte("MariaDB")) {
		p.SetFlavor("mariadb")
	}
	return p
}

// ParseFile runs BinlogParser.ParseReader over the whole file after its magic, as ParseFile does.
func ParseFile(data []byte) error {
	if !bytes.HasPrefix(data, replication.BinLogFileHeader) {
		return nil
	}
	return newParser(data).ParseReader(bytes.NewReader(data[len(replication.BinLogFileHeader):]),
		func(*replication.BinlogEvent) error { return nil })
}

// ParseEvents frames the file by each header's event_size and hands every event to
// BinlogParser.Parse, the single-event parser BinlogSyncer calls for each packet.
func ParseEvents(data []byte) error {
	if !bytes.HasPrefix(data, replication.BinLogFileHeader) {
		return nil
	}
	p := newParser(data)
	for pos := len(replication.BinLogFileHeader); pos+19 <= len(data); {
		size := int(binary.LittleEndian.Uint32(data[pos+9:]))
		if size < 19 || size > len(data)-pos {
			return io.ErrUnexpectedEOF
		}
		if _, err := p.Parse(data[pos : pos+size]); err != nil {
			return err
		}
		pos += size
	}
	return nil
}
