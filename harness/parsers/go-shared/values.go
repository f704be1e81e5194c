package main

// Shared by every Go adapter (harness/parsers/go-shared/).

// The tagging rules of oracle/values.py: integers beyond ±(2^53−1) as int tags, text bytes as
// UTF-8 strings or bytes tags, raw bytes always as bytes tags.

import (
	"encoding/hex"
	"strconv"
	"unicode/utf8"
)

const maxSafe = 1<<53 - 1

// Tagged is a value JSON cannot carry exactly: {"type": ..., "value": ...}.
type Tagged struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
}

func signed(v int64) any {
	if v > maxSafe || v < -maxSafe {
		return Tagged{"int", strconv.FormatInt(v, 10)}
	}
	return v
}

func unsigned(v uint64) any {
	if v > maxSafe {
		return Tagged{"int", strconv.FormatUint(v, 10)}
	}
	return v
}

func text(b []byte) any {
	if utf8.Valid(b) {
		return string(b)
	}
	return bytesTag(b)
}

func bytesTag(b []byte) any {
	return Tagged{"bytes", hex.EncodeToString(b)}
}
