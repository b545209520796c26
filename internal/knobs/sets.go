// Package knobs is httpvs's knob sets in one place: the named ones
// (go-default, Go as shipped; tuned, httpvs's large buffers), the knob
// file tune --write writes and run --knobs reads, and applying a set's
// knobs to a client, a server and a load engine (Setup).
package knobs

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/httpvs/httpvs/results"
	"github.com/httpvs/httpvs/units"
)

// The named knob sets.
var (
	// GoDefault is Go as shipped: zero-valued http.Transport, http.Server
	// and quic.Config (Go's 16 KiB HTTP/2 frames, its windows, quic-go's),
	// and bodies drained with io.Copy(io.Discard, resp.Body), which reads
	// 8 KiB at a time (io.Discard's ReadFrom). It is what a Go program
	// gets, the baseline users ask about. The server's handler is the
	// application's: httpvs's writes 256 KiB chunks in every set.
	GoDefault = results.KnobSet{Name: "go-default", Knobs: []results.Knob{
		{Field: "Client.ReadSize", Value: size(8 * units.KiB)},
		{Field: "Client.HTTP2.MaxReadFrameSize", Value: size(16 * units.KiB)},
	}}
	// Tuned is httpvs's own large buffers and frames: 256 KiB body reads
	// and writes and 1 MiB HTTP/2 frames advertised by the client.
	Tuned = results.KnobSet{Name: "tuned", Knobs: []results.Knob{
		{Field: "Client.ReadSize", Value: size(256 * units.KiB)},
		{Field: "Client.HTTP2.MaxReadFrameSize", Value: size(units.MiB)},
		{Field: "Server.WriteSize", Value: size(256 * units.KiB)},
	}}
)

func size(b units.Bytes) string { return b.String() }

// Named returns the set called name ("go-default" or "tuned").
func Named(name string) (results.KnobSet, bool) {
	for _, s := range []results.KnobSet{GoDefault, Tuned} {
		if s.Name == name {
			return s, true
		}
	}
	return results.KnobSet{}, false
}

// Value is the value the knob set s gives the field at path ("" for
// none): what help says a named set sets.
func Value(s results.KnobSet, path string) string {
	for _, k := range s.Knobs {
		if k.Field == path {
			return k.Value
		}
	}
	return ""
}

// The kind and schema version of a knob file (WriteFile).
const (
	knobFileKind          = "httpvs-knobs"
	knobFileSchemaVersion = 1
)

type knobFile struct {
	Kind          string `json:"kind"`
	SchemaVersion int    `json:"schema_version"`
	results.KnobSet
}

// WriteFile writes s as a knob file that ReadFile reads.
func WriteFile(w io.Writer, s results.KnobSet) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(knobFile{Kind: knobFileKind, SchemaVersion: knobFileSchemaVersion, KnobSet: s})
}

// ErrFile is wrapped by ReadFile's errors.
var ErrFile = errors.New("not a knob file")

// readFile reads a knob file: its kind, schema version and name
// (ReadFile also checks that every knob applies to a run).
func readFile(r io.Reader) (results.KnobSet, error) {
	var f knobFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return results.KnobSet{}, fmt.Errorf("%w (tune --write writes one): %v", ErrFile, err)
	}
	switch {
	case f.Kind != knobFileKind:
		return results.KnobSet{}, fmt.Errorf("%w: kind %q, want %q", ErrFile, f.Kind, knobFileKind)
	case f.SchemaVersion != knobFileSchemaVersion:
		return results.KnobSet{}, fmt.Errorf("%w: schema_version %d; this httpvs reads %d", ErrFile, f.SchemaVersion, knobFileSchemaVersion)
	case f.Name == "":
		return results.KnobSet{}, fmt.Errorf("%w: no name", ErrFile)
	}
	return f.KnobSet, nil
}
