package experiment

import (
	"fmt"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/netem"
)

// LinkTextError says why a link's text (ParseLink, ParseLinks) is not
// one link: empty, or several links in one.
type LinkTextError struct {
	// Text is the link as given.
	Text string
	// Links are the links Text names when it names several (two presets,
	// or links between ";"), each as its own text.
	Links []string
	// CCs are the congestion controls cc= names, when ParseLink is given
	// several (ParseLinks takes them as one link each).
	CCs []string
}

func (e *LinkTextError) Error() string {
	switch {
	case len(e.CCs) > 1:
		return fmt.Sprintf("link %q: cc= names %d congestion controls; one link takes one", e.Text, len(e.CCs))
	case len(e.Links) > 1:
		return fmt.Sprintf("link %q: %d links in one (%s); give each its own", e.Text, len(e.Links), strings.Join(e.Links, "; "))
	}
	return fmt.Sprintf("link %q: want a preset (%s), key=value fields (rtt=50ms,rate=20mbit) or both (4g,loss=2%%)", e.Text, strings.Join(netem.Presets(), ", "))
}

// ParseLink reads one link, named by its text: a preset ("4g"), key=value
// fields ("rtt=40ms,loss=1%") or a preset with fields after it
// ("4g,loss=2%"), as netem.Parse reads them. Two presets or a ";" are
// several links in one, which once ran as something else than typed
// ("lan,4g,rtt=50ms;loss=1%" made "4g,rtt=50ms" and a 0 ms "loss=1%"): a
// *LinkTextError, as is an empty text or cc= naming several controllers;
// a bad field is netem's *netem.SpecError.
func ParseLink(text string) (LinkSpec, error) {
	var presets []string
	for _, field := range strings.Split(text, ",") {
		if f := strings.TrimSpace(field); f != "" && !strings.Contains(f, "=") {
			presets = append(presets, f)
		}
	}
	if _, ccs := splitCC(text); len(ccs) > 1 {
		return LinkSpec{}, &LinkTextError{Text: text, CCs: ccs}
	}
	switch {
	case strings.TrimSpace(text) == "":
		return LinkSpec{}, &LinkTextError{Text: text}
	case strings.Contains(text, ";") || len(presets) > 1:
		parts := strings.FieldsFunc(text, func(r rune) bool { return r == ';' })
		if len(presets) > 1 {
			parts = presets
		}
		return LinkSpec{}, &LinkTextError{Text: text, Links: parts}
	}
	spec, err := netem.Parse(text)
	return LinkSpec{Name: text, Spec: spec}, err
}

// ParseLinks reads a link's text (ParseLink) as the links of a sweep
// (Options.Links): one, or with cc= naming several congestion controls
// ("rtt=80ms,cc=bbr,cubic") the same link once per controller, in the
// order named, each named by its own text ("rtt=80ms,cc=bbr").
func ParseLinks(text string) ([]LinkSpec, error) {
	rest, ccs := splitCC(text)
	if len(ccs) <= 1 {
		l, err := ParseLink(text)
		return []LinkSpec{l}, err
	}
	var out []LinkSpec
	for _, cc := range ccs {
		link := "cc=" + cc
		if rest != "" {
			link = rest + "," + link
		}
		l, err := ParseLink(link)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, nil
}

// splitCC takes cc= out of a link's text: the text without it and the
// controllers it names, the first after "cc=" and each bare field after
// it that is no preset (cc=bbr,cubic names two).
func splitCC(text string) (rest string, ccs []string) {
	var keep []string
	inCC := false
	for _, field := range strings.Split(text, ",") {
		f := strings.TrimSpace(field)
		switch {
		case strings.HasPrefix(f, "cc="):
			ccs, inCC = append(ccs, strings.TrimPrefix(f, "cc=")), true
		case inCC && f != "" && !strings.Contains(f, "=") && !slices.Contains(netem.Presets(), f):
			ccs = append(ccs, f)
		default:
			inCC = false
			keep = append(keep, field)
		}
	}
	return strings.Join(keep, ","), ccs
}
