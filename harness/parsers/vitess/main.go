// The Vitess adapter: one process for a whole run, speaking the persistent protocol
// (docs/plugin-contract.md). It drives vitess.io/vitess/go/mysql the way VReplication's
// vstreamer does (go/vt/vttablet/tabletserver/vstreamer, parseEvent): every event checked with
// IsValid, the Format of each FORMAT_DESCRIPTION_EVENT kept, StripChecksum, then the event's
// own accessors (Query, TableMap, Rows, TransactionPayload, ...), and row cells decoded with
// go/mysql/binlog.CellValue. `adapter file` splits the file into events by their length
// (vitess-file); `adapter stream` dumps from the harness's primary over go/mysql's Conn
// (vitess).
package main

import (
	"bufio"
	"fmt"
	"os"
)

const libraryVersion = "0.24.4"

// libraryPrefix: the library's functions, whose frames make a panic's signature (panics.go).
const libraryPrefix = "vitess.io/vitess/go/"

// Testee turns one parse request into the events the library delivered, or its rejection.
type Testee interface {
	Name() string
	Parse(req request) ([]Event, error)
}

func main() {
	if len(os.Args) != 2 || (os.Args[1] != "stream" && os.Args[1] != "file") {
		fmt.Fprintln(os.Stderr, "usage: vitess-adapter stream|file")
		os.Exit(2)
	}
	var testee Testee = FileTestee{}
	if os.Args[1] == "stream" {
		testee = StreamTestee{}
	}
	r := &replier{out: bufio.NewWriter(os.Stdout)}
	hello := map[string]any{"type": "hello", "protocol": 1, "name": testee.Name(),
		"version": libraryVersion, "transport": os.Args[1], "capabilities": capabilities(),
		"unavailable": nil}
	if os.Args[1] == "stream" {
		hello["modes"] = streamModes
		hello["modes_unsupported"] = streamModesUnsupported
	}
	r.send(hello)
	serve(testee.Parse, r)
}
