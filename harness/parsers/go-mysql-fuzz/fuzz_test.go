package gofuzz

import "testing"

func FuzzFile(f *testing.F)  { fuzz(f, "File") }
func FuzzEvent(f *testing.F) { fuzz(f, "Event") }
