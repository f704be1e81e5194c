package gofuzz

import "testing"

func FuzzFile(f *testing.F) { fuzz(f, "File") }
