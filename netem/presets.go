package netem

import (
	"sort"
	"strings"
)

// presets are the named links; docs/net-presets.md gives each one's source.
var presets = map[string]string{
	"lan":              "rtt=1ms,rate=1gbit",
	"wifi":             "rtt=10ms,down=30mbit,up=15mbit",
	"4g":               "rtt=70ms,rate=12mbit",
	"3g":               "rtt=300ms,down=1.6mbit,up=768kbit",
	"satellite":        "rtt=600ms,down=25mbit,up=3mbit",
	"intercontinental": "rtt=150ms,rate=100mbit",
	"lossy":            "rtt=50ms,rate=10mbit,loss=5%",
}

// Presets returns the names of the presets, sorted.
func Presets() []string {
	names := make([]string, 0, len(presets))
	for n := range presets {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// preset returns the named preset link, or a *SpecError listing the names.
func preset(name string) (Spec, error) {
	text, ok := presets[strings.ToLower(name)]
	if !ok {
		return Spec{}, &SpecError{Field: "preset", Value: name, Want: "one of " + strings.Join(Presets(), ", ") + " or key=value fields"}
	}
	s, err := Parse(text)
	if err != nil {
		return Spec{}, err // a test keeps every preset parsing
	}
	s.Name = strings.ToLower(name)
	return s, nil
}
