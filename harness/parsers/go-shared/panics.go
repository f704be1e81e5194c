package main

// A panic of the library is its finding, never the adapter's: the adapter recovers it only to
// keep its signature (the panic value and the top frames inside the library, whose functions
// start with the adapter's libraryPrefix), writes that as the last line of stderr, sends the
// `crashed` reply with the events before it, and ends the process with status 2, as an
// unrecovered Go panic would, so the harness records a crash whose message is the signature
// (stable across builds: file:line of the library frames, no addresses) and restarts the
// adapter for the next case.

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

const signatureFrames = 3

func parseGuarded(parse func(request) ([]Event, error), req request) (events []Event, err error) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "panic: %v\n%s\n", p, stackText())
			fmt.Fprintf(os.Stderr, "library panic: %v at %s\n", p, signature())
			reportCrash(p)
			os.Exit(2)
		}
	}()
	return parse(req)
}

// signature: the innermost frames in the library, "pkg.func (file.go:line)", innermost first.
func signature() string {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var parts []string
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, libraryPrefix) && len(parts) < signatureFrames {
			file := f.File[strings.LastIndex(f.File, "/")+1:]
			name := strings.TrimPrefix(f.Function, libraryPrefix)
			parts = append(parts, fmt.Sprintf("%s (%s:%d)", name, file, f.Line))
		}
		if !more {
			break
		}
	}
	if len(parts) == 0 {
		return "no library frame"
	}
	return strings.Join(parts, " < ")
}

func stackText() string {
	buf := make([]byte, 1<<16)
	return string(buf[:runtime.Stack(buf, false)])
}
