// Package gofuzz holds the coverage-guided fuzz targets of Vitess's go/mysql binlog event
// code (issue 31), the library vitess-file drives (harness/parsers/vitess): `go test -fuzz`
// instruments the library's packages, and each target decodes the fuzzer's bytes as a binlog
// file through the library's public API (decode.go). A panic that escapes the library is
// recovered, named and recorded by go-fuzz-shared's run.go (copied here at build); the library's
// returned errors are clean outcomes.
package gofuzz

import "vitess.io/vitess/go/mysql"

const libraryPrefix = "vitess.io/vitess/"

// Targets by name: the harness runs Fuzz<Name> and the replay command takes the name. One: the
// library has one way to decode (an event buffer cut by its caller, then its accessors), and
// a second target would halve each one's share of a session (go test -fuzz first spends about
// 13 ms per seed on its baseline here: the instrumented go/mysql is large).
var Targets = map[string]func([]byte) error{
	"File": DecodeFile,
}

// DecodeFile is vitess-file's use: each event's format is the file's own
// FORMAT_DESCRIPTION_EVENT (Format), table maps kept by id for the rows events after them, and
// the first event the library refuses ends the file, as it ends vstreamer's stream.
func DecodeFile(data []byte) error {
	d := &decoder{tables: map[uint64]*mysql.TableMap{}}
	return events(data, d.decode)
}
