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
		r.Server, r.ServerNote = nil, "run interrupted before the server's counters were read"
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
	if n := strings.Count(b.String(), ":tuned rows against Go as shipped, paired by round: "); n != 1 {
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
