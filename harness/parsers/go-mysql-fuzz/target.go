// Package gofuzz holds the coverage-guided fuzz targets of go-mysql (issue 31): `go test -fuzz`
// instruments the library's packages, and each target runs one of its entry points on the
// fuzzer's bytes. A panic the library lets escape is recovered here, named by its kind and the
// first frame inside the library (its signature), written to $NATIVE_FUZZ_FINDINGS as a
// reproducer and a note, and the session goes on; a parse that runs past $NATIVE_FUZZ_TIMEOUT
// seconds is a hang: noted the same way, then the worker panics so that the engine stops (the
// spinning goroutine cannot be stopped otherwise). The harness (harness/fuzz/native/go.py)
// restarts the engine while time remains.
package gofuzz

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-mysql-org/go-mysql/replication"
)

const libraryPrefix = "github.com/go-mysql-org/go-mysql/"

// Targets by name: the harness passes one with -fuzz=Fuzz<Name> and the replay command by name.
var Targets = map[string]func([]byte) error{
	"File":  ParseFile,
	"Event": ParseEvents,
}

func newParser() *replication.BinlogParser {
	p := replication.NewBinlogParser()
	p.SetUseDecimal(true)
	p.SetVerifyChecksum(true)
	p.SetTimestampStringLocation(time.UTC)
	p.SetRenderJSONAsMySQLText(true)
	if bytes.Contains(data0(), []byte("MariaDB")) {
		p.SetFlavor("mariadb")
	}
	return p
}

var current []byte // the input being parsed (flavor sniffing; one input at a time per worker)

func data0() []byte { return current }

// ParseFile runs BinlogParser.ParseReader over the whole file after its magic, as ParseFile does.
func ParseFile(data []byte) error {
	if !bytes.HasPrefix(data, replication.BinLogFileHeader) {
		return nil
	}
	return newParser().ParseReader(bytes.NewReader(data[len(replication.BinLogFileHeader):]),
		func(*replication.BinlogEvent) error { return nil })
}

// ParseEvents frames the file by each header's event_size and hands every event to
// BinlogParser.Parse, the single-event parser BinlogSyncer calls for each packet.
func ParseEvents(data []byte) error {
	if !bytes.HasPrefix(data, replication.BinLogFileHeader) {
		return nil
	}
	p := newParser()
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

// Finding is the note written beside a reproducer.
type Finding struct {
	Kind      string `json:"kind"`
	Signature string `json:"signature"`
	Detail    string `json:"detail"`
	Stack     string `json:"stack"`
}

var (
	seenMu sync.Mutex
	seen   = map[string]int{}
)

const keepPerSignature = 3

// Run is what every fuzz target and the replay command call: the target under recover and a
// deadline. It returns the finding (nil: a clean outcome, an error included).
func Run(target func([]byte) error, data []byte) *Finding {
	done := make(chan *Finding, 1)
	var parsing sync.WaitGroup
	parsing.Add(1)
	go func() {
		defer parsing.Done()
		defer func() {
			if r := recover(); r != nil {
				done <- &Finding{Kind: "crash", Signature: "crash:" + panicKind(r) + "@" + libraryFrame(callers()),
					Detail: fmt.Sprint(r), Stack: stack(false)}
			}
		}()
		current = data
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

// Record writes a finding's reproducer and note (the first few per signature).
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

var kindWords = regexp.MustCompile(`^(?:runtime error: )?([a-zA-Z][a-zA-Z ]*[a-zA-Z])`)

// panicKind: "index out of range [5] with length 3" -> "index-out-of-range".
func panicKind(r any) string {
	if err, ok := r.(error); ok {
		r = err.Error()
	}
	m := kindWords.FindStringSubmatch(fmt.Sprint(r))
	if m == nil {
		return "panic"
	}
	words := strings.Fields(m[1])
	if len(words) > 4 {
		words = words[:4]
	}
	return strings.Join(words, "-")
}

func callers() []runtime.Frame {
	pcs := make([]uintptr, 64)
	n := runtime.Callers(3, pcs)
	frames := runtime.CallersFrames(pcs[:n])
	var out []runtime.Frame
	for {
		f, more := frames.Next()
		out = append(out, f)
		if !more {
			return out
		}
	}
}

// libraryFrame: file:line of the innermost frame inside the library (its own stack, not ours).
func libraryFrame(frames []runtime.Frame) string {
	for _, f := range frames {
		if strings.HasPrefix(f.Function, libraryPrefix) {
			return filepath.Base(f.File) + ":" + strconv.Itoa(f.Line)
		}
	}
	return "outside-library"
}

var goFrame = regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(libraryPrefix) + `[\w/-]+\.(\S+)\(.*\)\n\s+(\S+\.go):\d+`)

// hungFrame: the event decoder the goroutine that runs the target is in: the outermost library
// frame named Decode (e.g. RowsEvent.Decode), else the innermost library function. Not a line,
// nor the innermost function: where a loop that never ends is caught varies from dump to dump.
func hungFrame(all string) string {
	for _, g := range strings.Split(all, "\n\n") {
		if !strings.Contains(g, "go-mysql-fuzz.Run.func") {
			continue
		}
		frames := goFrame.FindAllStringSubmatch(g, -1)
		if len(frames) == 0 {
			break
		}
		pick := frames[0]
		for _, m := range frames {
			if strings.HasSuffix(m[1], ".Decode") {
				pick = m
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
