// Command replay runs one fuzz target on reproducer files, outside the fuzzing engine, and
// prints each one's finding as a JSON line ({} when the library decodes it or returns an error):
// how the harness checks that a recorded reproducer still gives its signature, and how it
// minimises one by events. Every Go fuzz module is named binlog-conformance/gofuzz, so this one
// command serves them all.
//
//	replay TARGET FILE...
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"binlog-conformance/gofuzz"
)

func main() {
	if len(os.Args) < 3 || gofuzz.Targets[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: replay TARGET FILE...")
		os.Exit(2)
	}
	target := gofuzz.Targets[os.Args[1]]
	for _, name := range os.Args[2:] {
		data, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		line := []byte("{}")
		if found := gofuzz.Run(target, data); found != nil {
			line, _ = json.Marshal(found)
		}
		fmt.Println(string(line))
	}
}
