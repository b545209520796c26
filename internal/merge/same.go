package merge

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/load/loadresult"
)

// sameMeasurement returns a *MismatchError when b measured something else
// than a: another URL, method, transport, engine, loop mode, request shape
// or client setting. Concurrency, rates, counts and hosts may differ: they
// are what generators share out.
func sameMeasurement(a, b Part) error {
	x, y := a.Result, b.Result
	for _, f := range []struct{ name, x, y string }{
		{"url", x.URL, y.URL},
		{"method", x.Method, y.Method},
		{"requested", x.Requested, y.Requested},
		{"engine", x.Engine, y.Engine},
		{"mode", x.Mode, y.Mode},
		{"body_size", strconv.FormatInt(x.BodySize, 10), strconv.FormatInt(y.BodySize, 10)},
		{"headers", x.Headers, y.Headers},
		{"header_names", strings.Join(x.HeaderNames, ","), strings.Join(y.HeaderNames, ",")},
	} {
		if f.x != f.y {
			return &MismatchError{A: a.Name, B: b.Name, Field: f.name, ValueA: quote(f.x), ValueB: quote(f.y)}
		}
	}
	// A part that got no response has no negotiated protocol; two that
	// did must agree.
	if x.Protocol != "" && y.Protocol != "" && x.Protocol != y.Protocol {
		return &MismatchError{A: a.Name, B: b.Name, Field: "protocol", ValueA: x.Protocol, ValueB: y.Protocol}
	}
	if path, vx, vy, differ := diffSettings(x, y); differ {
		return &MismatchError{A: a.Name, B: b.Name, Field: "settings." + path, ValueA: vx, ValueB: vy}
	}
	return nil
}

func quote(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// diffSettings compares the client settings in their JSON form, so that
// every field, present and future, is compared, and names the first one
// that differs by its JSON path.
func diffSettings(x, y loadresult.Result) (path, vx, vy string, differ bool) {
	var mx, my any
	bx, _ := json.Marshal(x.Settings) // plain data: marshals
	by, _ := json.Marshal(y.Settings)
	if string(bx) == string(by) {
		return "", "", "", false
	}
	_ = json.Unmarshal(bx, &mx)
	_ = json.Unmarshal(by, &my)
	return diff("", mx, my)
}

// diff returns the first path at which two decoded JSON values differ.
func diff(path string, x, y any) (string, string, string, bool) {
	ox, okx := x.(map[string]any)
	oy, oky := y.(map[string]any)
	if !okx || !oky {
		bx, _ := json.Marshal(x)
		by, _ := json.Marshal(y)
		return path, string(bx), string(by), string(bx) != string(by)
	}
	keys := make([]string, 0, len(ox)+len(oy))
	for k := range ox {
		keys = append(keys, k)
	}
	for k := range oy {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		sub := k
		if path != "" {
			sub = path + "." + k
		}
		if p, vx, vy, d := diff(sub, ox[k], oy[k]); d {
			return p, vx, vy, true
		}
	}
	return "", "", "", false
}
