// The machinery every Go fuzz module shares (copied beside each module's target.go at build, as
// go-shared is beside the adapters; harness/fuzz/native/go.py): each target.go declares
// libraryPrefix and Targets, and this file runs a target on the fuzzer's bytes. A panic the
// library lets escape is recovered here, named by its kind and the innermost frame inside the
// library (its signature), written to $NATIVE_FUZZ_FINDINGS as a reproducer and a note, and the
// session goes on; a parse that runs past $NATIVE_FUZZ_TIMEOUT seconds is a hang: noted the same
// way, then the worker panics so that the engine stops (the spinning goroutine cannot be stopped
// otherwise). The harness restarts the engine while time remains.
package gofuzz

import (
	"crypto/sha1"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Finding is the note written beside a reproducer (and the replay command's JSON line).
type Finding struct {
	Kind      string `json:"kind"`
	Signature string `json:"signature"`
	Detail    string `json:"detail"`
	Stack     string `json:"stack"`
}

// Run calls a target under recover and a deadline; nil is a clean outcome (an error included).
func Run(target func([]byte) error, data []byte) *Finding {
	done := make(chan *Finding, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- &Finding{Kind: "crash", Signature: "crash:" + panicKind(r) + "@" + libraryFrame(),
					Detail: fmt.Sprint(r), Stack: stack(false)}
			}
		}()
		_ = target(data)
		done <- nil
	}()
	select {
	case f := <-done:
		return f
	case <-time.After(timeout()):
		all := stack(true)
		return &Finding{Kind: "hang", Signature: "hang@" + hungFrame(all),
			Detail: fmt.Sprintf("no result after %s", timeout()), Stack: all}
	}
}

const keepPerSignature = 3

var (
	seenMu sync.Mutex
	seen   = map[string]int{}
)

// Record writes the first few reproducers of each signature and their notes.
func Record(f *Finding, data []byte) {
	dir := os.Getenv("NATIVE_FUZZ_FINDINGS")
	if dir == "" {
		return
	}
	seenMu.Lock()
	seen[f.Signature]++
	n := seen[f.Signature]
	seenMu.Unlock()
	if n > keepPerSignature {
		return
	}
	sum := sha1.Sum(data)
	name := filepath.Join(dir, hex.EncodeToString(sum[:]))
	note, _ := json.MarshalIndent(f, "", "  ")
	_ = os.WriteFile(name+".bin", data, 0o644)
	_ = os.WriteFile(name+".json", note, 0o644)
}

func timeout() time.Duration {
	if s, err := strconv.ParseFloat(os.Getenv("NATIVE_FUZZ_TIMEOUT"), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return 5 * time.Second
}

var firstWords = regexp.MustCompile(`^(?:runtime error: )?([a-zA-Z][a-zA-Z ]*[a-zA-Z])`)

// panicKind names a panic by its first words: "index out of range [5] with length 3" gives
// "index-out-of-range".
func panicKind(r any) string {
	if err, ok := r.(error); ok {
		r = err.Error()
	}
	m := firstWords.FindStringSubmatch(fmt.Sprint(r))
	if m == nil {
		return "panic"
	}
	words := strings.Fields(m[1])
	return strings.Join(words[:min(len(words), 4)], "-")
}

// libraryFrame: file:line of the innermost library frame of the panicking goroutine, called
// from the deferred recover (the panic's frames are still on the stack under it).
func libraryFrame() string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, libraryPrefix) {
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
		if !more {
			return "outside-library"
		}
	}
}

var libraryCall = regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(libraryPrefix) + `[\w/.-]*?\.([\w(*).]+)\(.*\)\n\s+(\S+\.go):\d+`)

// hungFrame: the library function the target's goroutine is in when time runs out: the
// outermost one named Decode (go-mysql's RowsEvent.Decode), else the outermost (the accessor the
// target called, e.g. vitess's Rows). Not a line: where a loop that never ends is caught varies
// between dumps.
func hungFrame(all string) string {
	for _, g := range strings.Split(all, "\n\n") {
		if !strings.Contains(g, "binlog-conformance/gofuzz.Run.func") {
			continue
		}
		calls := libraryCall.FindAllStringSubmatch(g, -1)
		if len(calls) == 0 {
			break
		}
		pick := calls[len(calls)-1]
		for _, c := range calls {
			if strings.HasSuffix(c[1], ".Decode") {
				pick = c
			}
		}
		return filepath.Base(pick[2]) + ":" + strings.NewReplacer("(*", "", ")", "").Replace(pick[1])
	}
	return "outside-library"
}

func stack(all bool) string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, all)])
}
