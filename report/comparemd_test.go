package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/httpvs/httpvs/internal/analysis"
	"github.com/httpvs/httpvs/internal/vocab"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/results"
)

// defaultMatrixRun is a run of the default matrix's rows (each scenario,
// and the tuned rows) over the five transports, three rounds a cell:
// h1 at drift times its base, every other transport at ratio(scenario,
// protocol) times h1 with a little jitter. knobs names the knob set.
func defaultMatrixRun(drift []float64, ratio func(sc, p string) float64, knobs string) *results.Results {
	protos := []string{"h1", "h2c", "h1-tls", "h2", "h3"}
	res := &results.Results{Settings: results.Settings{Protocols: protos, Baseline: "h1", Repeat: 3, MaxRepeat: 3, Knobs: results.KnobSet{Name: knobs}}}
	var rows []string
	for _, sc := range plan.Scenarios {
		rows = append(rows, sc.Name)
		if sc.Name == "download" || sc.Name == "upload" {
			rows = append(rows, sc.Name+vocab.VariantSep+"tuned")
		}
	}
	jitter := []float64{1.0, 1.01, 0.99}
	for _, sc := range rows {
		for pi, p := range protos {
			c := results.Cell{Scenario: sc, Protocol: p, Metric: results.MetricBytesPerSecond}
			for i, d := range drift {
				v := 1e9 * d
				if p != "h1" {
					v *= ratio(sc, p) * jitter[(i+pi)%len(jitter)]
				}
				c.Repetitions = append(c.Repetitions, results.Repetition{Round: i + 1, Value: v})
			}
			analysis.SummariseCell(&c)
			res.Cells = append(res.Cells, c)
		}
	}
	return res
}

// TestCompareMarkdown: the default matrix compared, h2c's download
// halved and h1 faster by 30% in every scenario: a Markdown parser finds
// one table, a row per cell with a ratio (not the baselines'), the
// halved cell first and called slower with its interval, the baseline's
// move and the knob sets that differ a line each, all within 60 lines;
// the gate heads it.
func TestCompareMarkdown(t *testing.T) {
	flat := func(sc, p string) float64 { return 0.5 }
	old := defaultMatrixRun([]float64{1, 1.05, 0.95}, flat, "go-default")
	halved := func(sc, p string) float64 {
		if sc == "download" && p == "h2c" {
			return 0.25
		}
		return 0.5
	}
	nw := defaultMatrixRun([]float64{1.3, 1.35, 1.25}, halved, "mine")
	var b bytes.Buffer
	c := analysis.CompareRunsMargin("main/results.json", "pr/results.json", old, nw, nil)
	analysis.SetGate(&c, analysis.FailSlower)
	if err := CompareMarkdown(&b, c); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if n := strings.Count(md, "\n"); n > 60 {
		t.Errorf("%d lines, want at most 60:\n%s", n, md)
	}
	rows := markdownTableRows(t, md)
	if want := len(old.Cells) * 4 / 5; len(rows) != want+1 {
		t.Fatalf("%d table rows, want a header and %d cells:\n%s", len(rows), want, md)
	}
	if got := rows[0]; len(got) != 5 || got[0] != "cell" || got[3] != "change (interval)" {
		t.Errorf("header %q", got)
	}
	first := rows[1]
	if first[0] != "download h2c" || first[1] != "0.50x" || first[2] != "0.25x" || !strings.HasPrefix(first[3], "-50% [") || first[4] != "slower" {
		t.Errorf("first row %q, want download h2c 0.50x -> 0.25x, -50%% [...], slower", first)
	}
	for _, r := range rows[2:] {
		if r[4] != "~" || strings.HasPrefix(r[0], "h1 ") || strings.HasSuffix(r[0], " h1") {
			t.Errorf("row %q: want ~, and no baseline row", r)
		}
	}
	for _, want := range []string{"**Gate `--fail-on slower`: FAILED**: 1 of 44 cells tested: download h2c.", "**The baseline moved**: h1 itself: download +30%", "**Settings that differ**", "knobs `go-default` → `mine`"} {
		if strings.Count(md, want) != 1 {
			t.Errorf("want %q once in:\n%s", want, md)
		}
	}
}

// markdownTableRows parses md with goldmark (GitHub's tables) and returns
// the text of the one table's rows, header first.
func markdownTableRows(t *testing.T, md string) [][]string {
	t.Helper()
	src := []byte(md)
	doc := goldmark.New(goldmark.WithExtensions(extension.Table)).Parser().Parse(text.NewReader(src))
	var rows [][]string
	tables := 0
	err := ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n.(type) {
		case *extast.Table:
			tables++
		case *extast.TableHeader, *extast.TableRow:
			var row []string
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				row = append(row, strings.TrimSpace(nodeText(c, src)))
			}
			rows = append(rows, row)
		}
		return ast.WalkContinue, nil
	})
	if err != nil || tables != 1 {
		t.Fatalf("%v; %d tables, want 1:\n%s", err, tables, md)
	}
	return rows
}

// nodeText is the text under n, without its emphasis marks.
func nodeText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch t := c.(type) {
			case *ast.Text:
				b.Write(t.Segment.Value(src))
			case *ast.String:
				b.Write(t.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}
