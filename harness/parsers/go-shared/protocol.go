package main

// Shared by every Go adapter (harness/parsers/go-shared/, copied beside the adapter's own sources
// at build by harness/runtimes/go.py): the persistent protocol of docs/plugin-contract.md, one
// JSON object per line on the protocol's output, one reply per parse request.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
)

// Event is one canonical event, encoded as JSON.
type Event = map[string]any

// StreamSource is where a stream testee connects and where it stops.
type StreamSource struct {
	Host          string `json:"host"`
	Port          uint16 `json:"port"`
	User          string `json:"user"`
	Password      string `json:"password"`
	File          string `json:"file"`
	StartPosition uint32 `json:"start_position"`
	EndFile       string `json:"end_file"`
	EndPosition   uint32 `json:"end_position"`
	// the stream mode (docs/plugin-contract.md "Stream modes"): position, gtid, current, heartbeats
	Mode            string  `json:"mode"`
	GtidSet         string  `json:"gtid_set"`
	HeartbeatPeriod float64 `json:"heartbeat_period"`
}

type request struct {
	Type   string        `json:"type"`
	ID     int64         `json:"id"`
	Path   string        `json:"path"`
	Stream *StreamSource `json:"stream"`
}

// Rejection is the library's clean refusal of an input, after the events it delivered.
type Rejection struct {
	Kind    string
	Offset  *int64
	Message string
}

func (r *Rejection) Error() string { return r.Kind + ": " + r.Message }

func rejectAt(kind string, offset int64, message string) *Rejection {
	return &Rejection{Kind: kind, Offset: &offset, Message: message}
}

// skip declines an input on purpose, with the reason.
type skip string

func (s skip) Error() string { return string(s) }

// The request being answered: where a panic of the library sends its `crashed` reply, and the
// events delivered before it (the slice an adapter named with delivering).
var current struct {
	r         *replier
	id        int64
	delivered *[]Event
}

// delivering names the slice the adapter fills as it decodes: if the library then panics, the
// `crashed` reply carries these events, and they are still compared.
func delivering(events *[]Event) { current.delivered = events }

// reportCrash sends the `crashed` reply for a panic of the library; the caller then ends the
// process as a panic does (the harness reads the exit and the last stderr line).
func reportCrash(p any) {
	if current.r == nil {
		return
	}
	var events []Event
	if current.delivered != nil {
		events = *current.delivered
	}
	current.r.send(map[string]any{"type": "crashed", "id": current.id, "message": fmt.Sprint(p),
		"events": nonNil(events)})
	current.r = nil
}

// serve answers every parse request on stdin with one reply, until stdin closes.
func serve(parse func(request) ([]Event, error), r *replier) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil || req.Type != "parse" {
			fmt.Fprintf(os.Stderr, "ignoring a line that is not a parse request: %q\n", in.Text())
			continue
		}
		current.r, current.id, current.delivered = r, req.ID, nil
		events, err := parseGuarded(parse, req)
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

type replier struct {
	out *bufio.Writer
}

func (r *replier) send(reply map[string]any) {
	enc := json.NewEncoder(r.out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(reply); err != nil {
		os.Stderr.WriteString("cannot encode reply: " + err.Error() + "\n")
		os.Exit(3)
	}
	r.out.Flush()
}

func (r *replier) events(id int64, events []Event) {
	r.send(map[string]any{"type": "events", "id": id, "events": nonNil(events)})
}

func (r *replier) rejected(id int64, events []Event, rej *Rejection) {
	reply := map[string]any{"type": "error", "id": id, "kind": rej.Kind, "message": rej.Message,
		"events": nonNil(events)}
	if rej.Offset != nil {
		reply["offset"] = *rej.Offset
	}
	r.send(reply)
}

func (r *replier) skipped(id int64, reason string) {
	r.send(map[string]any{"type": "skipped", "id": id, "reason": reason})
}

func nonNil(events []Event) []Event {
	if events == nil {
		return []Event{}
	}
	return events
}
