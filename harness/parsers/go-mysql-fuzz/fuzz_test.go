package gofuzz

import (
	"os"
	"path/filepath"
	"testing"
)

// seeds adds every file of $NATIVE_FUZZ_SEEDS (the harness writes the corpus there).
func seeds(f *testing.F) {
	dir := os.Getenv("NATIVE_FUZZ_SEEDS")
	if dir == "" {
		return
	}
	names, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, name := range names {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
}

func fuzz(f *testing.F, name string) {
	seeds(f)
	target := Targets[name]
	f.Fuzz(func(t *testing.T, data []byte) {
		if found := Run(target, data); found != nil {
			Record(found, data)
			if found.Kind == "hang" {
				panic(found.Signature) // the parse goroutine cannot be stopped: end this worker
			}
		}
	})
}

func FuzzFile(f *testing.F)  { fuzz(f, "File") }
func FuzzEvent(f *testing.F) { fuzz(f, "Event") }
