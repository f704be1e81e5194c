package main

// The persistent protocol of docs/plugin-contract.md: one JSON object per line on standard
// output (the library logs through glog to stderr).

import (
	"bufio"
	"encoding/json"
	"os"
)

// StreamSource is where a stream testee connects and where it stops.
type StreamSource struct {
	Host          string `json:"host"`
	Port          int    `json:"port"`
	User          string `json:"user"`
	Password      string `json:"password"`
	File          string `json:"file"`
	StartPosition uint32 `json:"start_position"`
	EndFile       string `json:"end_file"`
	EndPosition   uint32 `json:"end_position"`
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
