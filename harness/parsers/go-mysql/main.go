// The go-mysql adapter: one process for a whole run, speaking the persistent protocol
// (docs/plugin-contract.md). `adapter stream` drives replication.BinlogSyncer against the
// harness's primary (the testee go-mysql); `adapter file` drives replication.BinlogParser over
// the file (go-mysql-file).
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"syscall"
)

const libraryVersion = "1.16.0"

// libraryPrefix: the library's functions, whose frames make a panic's signature (panics.go).
const libraryPrefix = "github.com/go-mysql-org/go-mysql/"

// Testee turns one parse request into the events the library delivered, or its rejection.
type Testee interface {
	Name() string
	Parse(req request) ([]Event, error)
}

func main() {
	if len(os.Args) != 2 || (os.Args[1] != "stream" && os.Args[1] != "file") {
		fmt.Fprintln(os.Stderr, "usage: go-mysql-adapter stream|file")
		os.Exit(2)
	}
	out := protocolOutput()
	var testee Testee = FileTestee{}
	if os.Args[1] == "stream" {
		testee = StreamTestee{}
	}
	r := &replier{out: bufio.NewWriter(out)}
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

// protocolOutput keeps the real standard output for the protocol and points file descriptor 1
// at stderr: go-mysql prints to stdout in places (a failed partial-JSON decode), which would
// otherwise break the protocol.
func protocolOutput() *os.File {
	fd, err := syscall.Dup(1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cannot dup stdout:", err)
		os.Exit(2)
	}
	if err := syscall.Dup3(2, 1, 0); err != nil {
		fmt.Fprintln(os.Stderr, "cannot redirect stdout:", err)
		os.Exit(2)
	}
	os.Stdout = os.Stderr
	return os.NewFile(uintptr(fd), "protocol")
}

var stderr io.Writer = os.Stderr
