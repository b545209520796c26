package cli

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/httpvs/httpvs/experiment"
	"github.com/httpvs/httpvs/netem"
	"github.com/httpvs/httpvs/units"
)

// netFlagUsage is --net's help; sweep tells whether the command takes
// several links (run) or one (tune).
func netFlagUsage(sweep bool) string {
	several, ccSeveral := "; one link", ""
	if sweep {
		ccSeveral = "; cc=bbr,cubic runs the same link once under each, in one report"
		several = "; repeat the flag for several links, run one after another with a table across them at the end: --net 4g --net lossy --net rtt=80ms"
	}
	return "emulate a network `link` between the client and the server: a preset (" + strings.Join(netem.Presets(), ", ") +
		"), key=value fields (rtt=50ms,rate=20mbit,loss=1%) or both (4g,loss=2%)" + several + ". backend=tun or backend=netem picks how the link is made (default auto: the kernel's netem where it has it, else TUN devices). cc=bbr|reno|cubic sets TCP's congestion control in the link's namespaces (default: the kernel's for a new namespace; the report names it, and QUIC's, quic-go's cubic)" + ccSeveral + ". See docs/net-presets.md. Linux: root, or any user where the system allows user namespaces (httpvs then runs itself in one)"
}

// parseNetFlag reads --net; a bad spec is a usage error naming the field.
func parseNetFlag(text string) (netem.Spec, error) {
	spec, err := netem.Parse(text)
	var se *netem.SpecError
	if errors.As(err, &se) {
		return spec, usagef("--net %s=%q: want %s", se.Field, se.Value, se.Want)
	}
	return spec, err
}

// netProfile is one link profile of --net: its text and its spec.
type netProfile struct {
	text string
	spec netem.Spec
}

// netList is --net, repeatable: each value one link, run in order.
type netList []string

func (l *netList) String() string { return strings.Join(*l, " --net ") }

func (l *netList) Set(text string) error {
	*l = append(*l, text)
	return nil
}

// oneLink reads one --net value as one link: a preset, key=value fields,
// or a preset with fields after it. Two presets or a ";" are several
// links in one value, which once ran as something else than typed
// ("lan,4g,rtt=50ms;loss=1%" made "4g,rtt=50ms" and a 0 ms "loss=1%"):
// a usage error that says to repeat the flag.
func oneLink(text string) (netProfile, error) {
	var presets []string
	for _, field := range strings.Split(text, ",") {
		if f := strings.TrimSpace(field); f != "" && !strings.Contains(f, "=") {
			presets = append(presets, f)
		}
	}
	if _, ccs := splitCC(text); len(ccs) > 1 {
		return netProfile{}, usagef("--net %q: cc= names %d congestion controls; this command takes one link", text, len(ccs))
	}
	switch {
	case strings.TrimSpace(text) == "":
		return netProfile{}, usagef("--net \"\": want a link: a preset (%s), key=value fields (rtt=50ms,rate=20mbit) or both (4g,loss=2%%)", strings.Join(netem.Presets(), ", "))
	case strings.Contains(text, ";") || len(presets) > 1:
		parts := strings.FieldsFunc(text, func(r rune) bool { return r == ';' })
		if len(presets) > 1 {
			parts = presets
		}
		return netProfile{}, usagef("--net %q: one link per --net; for several links repeat the flag: --net %s", text, strings.Join(parts, " --net "))
	}
	spec, err := parseNetFlag(text)
	return netProfile{text: text, spec: spec}, err
}

// costLine says, before the cells start, what the run will measure and
// how long it is expected to take from its start (spent so far, and the
// estimate), and the budget added rounds fit in.
func costLine(p experiment.Plan) string {
	where := "on loopback"
	if p.Link != nil {
		c := p.Link.Calibration
		where = fmt.Sprintf("across %s (%.1f ms, %s down)", p.LinkName, c.UDPRTTSeconds*1e3, units.BitsPerSecond(p.Link.Rate(false)))
	}
	est := p.Estimate
	line := fmt.Sprintf("httpvs run: %d cells %s, %d round(s) each: about %s in all", est.Cells, where, est.Rounds, (p.Spent + est.Time).Round(time.Second))
	switch {
	case p.Budget > 0 && p.Spent+est.Time > p.Budget:
		line += fmt.Sprintf(", past --budget %s: every cell gets one round at least", p.Budget.Round(time.Second))
	case est.MaxRounds > est.Rounds && p.Budget > 0:
		line += fmt.Sprintf(", at most %s: noisy cells get up to %d rounds within it (--budget)", p.Budget.Round(time.Second), est.MaxRounds)
	}
	return line
}

// linksOf reads one --net value of run as its links: one, or with cc=
// naming several congestion controls (cc=bbr,cubic) the same link once
// per controller, in the order named.
func linksOf(text string) ([]netProfile, error) {
	rest, ccs := splitCC(text)
	if len(ccs) <= 1 {
		p, err := oneLink(text)
		return []netProfile{p}, err
	}
	var out []netProfile
	for _, cc := range ccs {
		link := "cc=" + cc
		if rest != "" {
			link = rest + "," + link
		}
		p, err := oneLink(link)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
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
