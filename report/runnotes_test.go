package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/knobs"
	"github.com/httpvs/httpvs/internal/vocab"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/results"
)

// TestRunNotesOnceAtTheTop: quic-go's UDP buffer warning, with what
// raising the caps was measured to do, and the reason every table's server figures are n/a are each
// said once, near the top, in every format: not under each table, and not
// as an h1-tls note that cites an http:// address.
func TestRunNotesOnceAtTheTop(t *testing.T) {
	const udp = "warning: UDP buffers at 208 KiB, below quic-go's 7 MiB: sysctl -w net.core.rmem_max=7500000 net.core.wmem_max=7500000"
	const why = "server counters unavailable: GET http://127.0.0.1:9/stats: 404 Not Found (not an httpvs server?)"
	res := sampleRun()
	res.Settings.UDPBuffers = udp
	for i := range res.Cells {
		for j := range res.Cells[i].Repetitions {
			r := &res.Cells[i].Repetitions[j]
			r.Server, r.ServerCPUSeconds, r.ServerCPUPerUnit, r.ServerCores, r.ServerNote = nil, nil, nil, nil, why
		}
	}
	for _, tc := range []struct {
		name   string
		render func(*bytes.Buffer, *results.Results) error
		table  string // where the detail tables begin
	}{
		{"text", func(b *bytes.Buffer, r *results.Results) error { return Matrix(b, r) }, "small-sequential: "},
		{"markdown", func(b *bytes.Buffer, r *results.Results) error { return Markdown(b, r) }, "## small-sequential"},
		{"html", func(b *bytes.Buffer, r *results.Results) error { return HTML(b, r) }, "small-sequential"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := tc.render(&b, res); err != nil {
				t.Fatal(err)
			}
			out := b.String()
			if n := strings.Count(out, "UDP buffers at 208 KiB"); n != 1 {
				t.Errorf("the UDP buffers' caps %d times, want once", n)
			}
			if n := strings.Count(out, "server figures n/a"); n != 1 {
				t.Errorf("server figures n/a said %d times, want once", n)
			}
			if n := strings.Count(out, "127.0.0.1:9/stats"); n != 1 {
				t.Errorf("the counters' address %d times, want once", n)
			}
			if i, j := strings.Index(out, "UDP buffers at 208 KiB"), strings.Index(out, tc.table); i < 0 || i > j {
				t.Errorf("the warning is not above the tables (at %d, the first table at %d)", i, j)
			}
		})
	}
}

// TestServerNoteStaysWhereItDiffers: a reason that holds for one table
// only stays under that table.
func TestServerNoteStaysWhereItDiffers(t *testing.T) {
	res := sampleRun()
	for j := range res.Cells[0].Repetitions {
		r := &res.Cells[0].Repetitions[j]
		r.Server, r.ServerCPUSeconds, r.ServerCPUPerUnit, r.ServerCores, r.ServerNote = nil, nil, nil, nil, "run interrupted before the server's counters were read"
	}
	if n := foldedServerNote(res); n != "" {
		t.Errorf("folded %q from one table's cell", n)
	}
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "note: server figures n/a: h1: run interrupted") {
		t.Errorf("the table's own note is gone:\n%s", b.String())
	}
}

// TestTunedFootnoteOnlyWithItsRows: a run whose knob set had rows
// alongside, but none measured (a scenario list without downloads),
// explains no ":tuned" rows.
func TestTunedFootnoteOnlyWithItsRows(t *testing.T) {
	res := sampleRun()
	tuned := knobs.Tuned
	res.Settings.Alongside = &tuned
	var b bytes.Buffer
	analysis.Conclude(res)
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), ":tuned rows") {
		t.Errorf("a footnote for rows that are not there:\n%s", b.String())
	}
	res.Cells = append(res.Cells, res.Cells[0], res.Cells[1])
	for i := len(res.Cells) - 2; i < len(res.Cells); i++ {
		res.Cells[i].Scenario, res.Cells[i].Knobs = "download"+vocab.VariantSep+"tuned", "tuned"
	}
	b.Reset()
	analysis.Conclude(res)
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(b.String(), ":tuned rows over the same transport as shipped, paired by round: "); n != 1 {
		t.Errorf("the footnote %d times with the rows there, want once", n)
	}
}

// TestUnreliableServerFiguresOneNote: the transports whose server figures
// disagree with the client's share one note under their table, a clause
// each, not a note each.
func TestUnreliableServerFiguresOneNote(t *testing.T) {
	res := sampleRun()
	for _, i := range []int{0, 1} {
		for j := range res.Cells[i].Repetitions {
			res.Cells[i].Repetitions[j].ServerUnreliable = "the server moved 529127 body bytes in its window, the client 6: server figures not used"
		}
	}
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "marked ? are unreliable"); n != 1 ||
		!strings.Contains(out, "are unreliable, and no rule uses them: h1: the server moved 529127 body bytes in its window, the client 6; h2c: the server moved") {
		t.Errorf("%d notes of unreliable server figures, want one with a clause a transport:\n%s", n, out)
	}
}

// TestServerNoteOnceInATable: one table whose transports all lack server
// figures for the same reason says it once, not once a transport with an
// h1-tls clause citing an http:// address.
func TestServerNoteOnceInATable(t *testing.T) {
	const why = "server counters unavailable: GET http://127.0.0.1:9/stats: 404 Not Found (not an httpvs server?)"
	res := sampleRun()
	res.Cells = res.Cells[:3] // download alone
	for i := range res.Cells {
		for j := range res.Cells[i].Repetitions {
			r := &res.Cells[i].Repetitions[j]
			r.Server, r.ServerCPUSeconds, r.ServerCPUPerUnit, r.ServerCores, r.ServerNote = nil, nil, nil, nil, why
		}
	}
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Count(out, "127.0.0.1:9/stats") != 1 || strings.Contains(out, "h2c: server counters") {
		t.Errorf("the reason not said once for the table:\n%s", out)
	}
}

// TestTunedLineSaysGainsNotRatios: a tuned row whose ratio to h1 falls
// because h1 gained more is still raised by its own paired test, and the
// line says the gains (the baseline's too), never the two ratios, whose
// denominators differ.
func TestTunedLineSaysGainsNotRatios(t *testing.T) {
	reps := func(vals ...float64) []results.Repetition {
		var out []results.Repetition
		for i, v := range vals {
			out = append(out, results.Repetition{Round: i + 1, Value: v})
		}
		return out
	}
	iv := func(r float64) *results.Interval {
		return &results.Interval{Ratio: r, Low: r * 0.9, High: r * 1.1, Pairs: 6, Verdict: results.VerdictSlower}
	}
	res := &results.Results{Settings: results.Settings{Alongside: &results.KnobSet{Name: "tuned"}}, Cells: []results.Cell{
		{Scenario: "download", Protocol: "h1", Repetitions: reps(10, 10.5, 9.5, 10, 10.2, 9.8)},
		{Scenario: "download", Protocol: "h3", VsBaseline: iv(0.11), Repetitions: reps(1.1, 1.15, 1.05, 1.1, 1.12, 1.08)},
		{Scenario: "download:tuned", Protocol: "h1", Knobs: "tuned", Repetitions: reps(16, 16.5, 15.5, 16, 16.2, 15.8)},
		{Scenario: "download:tuned", Protocol: "h3", Knobs: "tuned", VsBaseline: iv(0.08), Repetitions: reps(1.3, 1.35, 1.25, 1.3, 1.32, 1.28)},
	}}
	analysis.SetTunedGains(res.Cells)
	analysis.Conclude(res)
	g := res.Judgement.Tuned
	if g == nil || len(g.Gains) != 2 || g.Gains[0].Cell != "download/h1" || g.Gains[0].From != 0 || g.Gains[1].Word != vocab.GainRaised {
		t.Fatalf("tuned rows %+v: want download/h1 (no ratios) and download/h3 raised", g)
	}
	var b bytes.Buffer
	if err := Screen(&b, res, nil); err != nil {
		t.Fatal(err)
	}
	out := strings.ReplaceAll(b.String(), "\n  ", " ")
	if !strings.Contains(out, "raised download/h1 ×1.60 [") || !strings.Contains(out, "download/h3 ×1.18 [") {
		t.Errorf("the gains are not said:\n%s", out)
	}
	if strings.Contains(out, "0.11x→") || strings.Contains(out, "→0.08x") {
		t.Errorf("the two rows' ratios are set side by side:\n%s", out)
	}
}

// TestServerCPUFromProcSaid: when the server's CPU came from /proc, the
// tables show it and say the counters alone are n/a, once at the top,
// beside the line naming the process; the first screen names it too.
func TestServerCPUFromProcSaid(t *testing.T) {
	const why = "server counters unavailable: GET http://127.0.0.1:9/stats: 404 Not Found (not an httpvs server?)"
	const from = "server CPU read from /proc for caddy (pid 1234)"
	res := sampleRun()
	res.Settings.ServerCPU = from
	for i := range res.Cells {
		for j := range res.Cells[i].Repetitions {
			r := &res.Cells[i].Repetitions[j]
			r.Server, r.ServerNote = nil, why
		}
	}
	var b bytes.Buffer
	if err := Matrix(&b, res); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{from, "server counters n/a (its CPU read from /proc) in every table"} {
		if n := strings.Count(out, want); n != 1 {
			t.Errorf("%q said %d times, want once:\n%s", want, n, out)
		}
	}
	if strings.Contains(out, "server figures n/a") {
		t.Errorf("figures read from /proc said to be n/a:\n%s", out)
	}
	b.Reset()
	if err := Screen(&b, res, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), from) {
		t.Errorf("the first screen does not say where the server's CPU came from:\n%s", b.String())
	}
}
