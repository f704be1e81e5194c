package main

// Shared by every Go adapter (harness/parsers/go-shared/).

import (
	"strconv"
	"strings"
	"time"
)

// epoch: a TIMESTAMP the library renders as UTC wall-clock text ("YYYY-MM-DD HH:MM:SS[.frac]",
// the zero timestamp as 0000-00-00 00:00:00) as the canonical value, the epoch seconds with the
// same fraction digits.
func epoch(s string) string {
	whole, frac, _ := strings.Cut(s, ".")
	sec := "0"
	if !strings.HasPrefix(whole, "0000-00-00") {
		t, err := time.ParseInLocation(time.DateTime, whole, time.UTC)
		if err != nil {
			return "unparsed " + s
		}
		sec = strconv.FormatInt(t.Unix(), 10)
	}
	if frac != "" {
		return sec + "." + frac
	}
	return sec
}
