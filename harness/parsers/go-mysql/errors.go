package main

// The library's errors as typed rejections: a kind named after what its message says, the
// offset where the last event it delivered ended (the library reports no offsets).

import (
	"errors"
	"strings"

	"github.com/go-mysql-org/go-mysql/replication"
)

var errorKinds = []struct{ marker, kind string }{
	{"checksum mismatch", "ChecksumMismatch"},
	{"get event header err", "TruncatedEvent"},
	{"get event err", "TruncatedEvent"},
	{"invalid event header", "BadHeader"},
	{"invalid raw data size", "TruncatedEvent"},
	{"invalid data size", "TruncatedEvent"},
	{"panic", "LibraryPanic"},
}

func libraryRejection(err error, offset int64) *Rejection {
	msg := err.Error()
	kind := "LibraryError"
	var eventErr *replication.EventError
	if errors.As(err, &eventErr) {
		kind = "EventError"
	}
	for _, k := range errorKinds {
		if strings.Contains(msg, k.marker) {
			kind = k.kind
			break
		}
	}
	return &Rejection{Kind: kind, Offset: &offset, Message: msg}
}
