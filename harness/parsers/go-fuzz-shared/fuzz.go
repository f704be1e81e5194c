package gofuzz

import (
	"os"
	"path/filepath"
	"testing"
)

// seeds adds every file of $NATIVE_FUZZ_SEEDS, in name order (go.py maps seed#N back to it).
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

// fuzz is the body of each module's Fuzz<Name> (fuzz_test.go): the target of that name on the
// seeds, then on the engine's inputs.
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
