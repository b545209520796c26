package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/matrix"
	"github.com/httpvs/httpvs/internal/runfiles"
	"github.com/httpvs/httpvs/results"
)

// defaultKnobs is the knob set run and tune start from: Go as shipped, the
// baseline users ask about.
const defaultKnobs = "go-default"

// knobsUsage is the --knobs flag's help.
const knobsUsage = "settings to start from: go-default (Go as shipped: zero-valued net/http and quic-go types, io.Copy(io.Discard, body)), tuned (httpvs's 256Ki reads and writes, 1Mi HTTP/2 frames), or a `file` written by tune --write; flags given explicitly override it"

// loadKnobSet reads --knobs: a named set or a knob file.
func loadKnobSet(arg string) (results.KnobSet, error) {
	if s, ok := runfiles.NamedKnobSet(arg); ok {
		return s, nil
	}
	f, err := os.Open(arg)
	if err != nil {
		return results.KnobSet{}, usagef("--knobs %q: want go-default, tuned, or a file written by httpvs tune --write (%v)", arg, err)
	}
	defer f.Close()
	s, err := matrix.ReadKnobFile(f)
	if err != nil {
		return results.KnobSet{}, usagef("--knobs %s: %v", arg, err)
	}
	return s, nil
}

// knobsOver returns the knobs of s that the flags given (set) leave to
// it, which the experiment applies, once, and the results record: a
// knob whose flag was given is left out (explicit flags win), and named
// in the set's name. A knob no flag of this command sets is refused.
func knobsOver(fs *flagset.Set, s results.KnobSet, set map[string]bool) (results.KnobSet, error) {
	applied := results.KnobSet{Name: s.Name}
	var overridden []string
	for _, k := range s.Knobs {
		name, ok := fs.FlagFor(k.Field)
		switch {
		case !ok:
			return applied, usagef("--knobs %s: %s is not a setting of this command", s.Name, k.Field)
		case set[name]:
			overridden = append(overridden, flagset.Dash(name))
			continue
		}
		applied.Knobs = append(applied.Knobs, k)
	}
	if len(overridden) > 0 {
		applied.Name = fmt.Sprintf("%s, with %s", s.Name, strings.Join(overridden, " "))
	}
	return applied, nil
}

// knobDefaults says, in the help of a command that starts from a knob set
// (--knobs), the defaults it really uses: the set's, Go's as shipped
// unless another is named, not the transport package's own.
func knobDefaults(fs *flagset.Set) {
	read, frame := "Client.ReadSize", "Client.HTTP2.MaxReadFrameSize"
	fs.Lookup("read-size").Usage = "client body read buffer `size` (default: the --knobs set's; go-default reads as io.Copy(io.Discard, body) does, " +
		knobValue(runfiles.GoDefault, read) + " at a time; tuned " + knobValue(runfiles.Tuned, read) + ")"
	fs.Lookup("h2-max-frame").Usage = "HTTP/2 SETTINGS_MAX_FRAME_SIZE the client advertises, `size` 16Ki..16Mi-1 (default: the --knobs set's; go-default Go's " +
		knobValue(runfiles.GoDefault, frame) + ", tuned " + knobValue(runfiles.Tuned, frame) + ")"
	// The windows a knob file from tune --write may set (tune.Best's
	// fields); the named sets leave them to Go and quic-go.
	for name, def := range map[string]string{
		"h2-stream-window":   "Go's client's, 4Mi",
		"quic-stream-window": "quic-go's, 6Mi",
		"quic-conn-window":   "quic-go's, 15Mi",
	} {
		f := fs.Lookup(name)
		usage, _, _ := strings.Cut(f.Usage, " (default")
		f.Usage = usage + " (default " + def + ", unless a --knobs file sets it)"
	}
}

// knobValue is the value the knob set s gives the field at path; "" for
// none.
func knobValue(s results.KnobSet, path string) string {
	for _, k := range s.Knobs {
		if k.Field == path {
			return k.Value
		}
	}
	return ""
}
