// Command replay runs one fuzz target on reproducer files, outside the fuzzing engine, and
// prints each one's finding as a JSON line ({} when it parses cleanly): how the harness checks
// that a recorded reproducer still gives its signature, and how it minimises one by events.
//
//	replay File|Event FILE...
package main

import (
	"encoding/json"
	"fmt"
	"os"

	gofuzz "binlog-conformance/parsers/go-mysql-fuzz"
)

func main() {
	if len(os.Args) < 3 || gofuzz.Targets[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: replay File|Event FILE...")
		os.Exit(2)
	}
	target := gofuzz.Targets[os.Args[1]]
	for _, name := range os.Args[2:] {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var line []byte
		if found := gofuzz.Run(target, data); found != nil {
			line, _ = json.Marshal(found)
		} else {
			line = []byte("{}")
		}
		fmt.Println(string(line))
	}
	os.Exit(0)
}
