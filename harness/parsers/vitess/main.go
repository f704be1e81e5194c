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
	"encoding/json"
	"fmt"
	"os"
)

const libraryVersion = "0.24.4"

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
	r.send(map[string]any{"type": "hello", "protocol": 1, "name": testee.Name(),
		"version": libraryVersion, "transport": os.Args[1], "capabilities": capabilities(),
		"unavailable": nil})
	serve(testee, r)
}

func serve(testee Testee, r *replier) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil || req.Type != "parse" {
			fmt.Fprintf(os.Stderr, "ignoring a line that is not a parse request: %q\n", in.Text())
			continue
		}
		events, err := parseGuarded(testee, req)
		switch e := err.(type) {
		case nil:
			r.events(req.ID, events)
		case *Rejection:
			r.rejected(req.ID, events, e)
		case skip:
			r.skipped(req.ID, string(e))
		default:
			r.rejected(req.ID, events, &Rejection{Kind: "AdapterError", Message: err.Error()})
		}
	}
}

// skip declines an input on purpose, with the reason.
type skip string

func (s skip) Error() string { return string(s) }
