package report

import (
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/results"
)

// screenWidth is the narrowest common laptop screen, CSS pixels.
const screenWidth = 1366

// netFixture is the results.json of a real `httpvs run --net 4g --quick`
// (2026-11-26, 2 cores): a link's verdict, its words and bounds, the
// lines that ran off the page before.
func netFixture(t *testing.T) *results.Results {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "net-4g-quick.json.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := results.ReadJSON(zr)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestPagesFitTheScreen renders report.html for each kind of run
// (loopback, --net, --net with --peers' rows and --browser's table, --go)
// and when.html across two links, loads each in headless Chromium at a
// viewport 1,366 px wide, and asserts that the page is no wider: long
// lines wrap and wide tables scroll in their own box. Chromium is found
// as --browser finds it; without it the test is skipped, unless CI=true
// (CI installs it).
func TestPagesFitTheScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("a browser: not under -short")
	}
	path, err := browser.Find("")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and %v", err)
		}
		t.Skip(err)
	}
	net := netFixture(t)
	withAll := netFixture(t)
	withAll.Browser = browserResults().Browser
	withAll.References = []results.ReferenceCell{
		{Scenario: "download", Server: "h2o", Language: "C", Client: "curl", Protocol: "h1", Metric: results.MetricBytesPerSecond, Rounds: []float64{1.4e6}, Median: 1.4e6},
		{Scenario: "download", Server: "h2o", Language: "C", Client: "curl", Protocol: "h2c", Metric: results.MetricBytesPerSecond, Rounds: []float64{1.3e6}, Median: 1.3e6},
	}
	withAll.PeersMissing = []string{"caddy (apt-get install caddy)", "nginx (apt-get install nginx)", "oha (cargo install oha --locked --features http3)"}
	lossy := netFixture(t)
	lossy.Settings.Net.Spec, lossy.Settings.Net.Configured = "lossy", "delay=25ms,rate=10mbit,loss=5%"
	pages := map[string]func(*bytes.Buffer) error{
		"loopback":          func(b *bytes.Buffer) error { return HTML(b, sampleRun()) },
		"net":               func(b *bytes.Buffer) error { return HTML(b, net) },
		"net-peers-browser": func(b *bytes.Buffer) error { return HTML(b, withAll) },
		"when":              func(b *bytes.Buffer) error { return whenHTML(b, []*results.Results{net, lossy}) },
		"go":                func(b *bytes.Buffer) error { return goVersionsHTML(b, goResults()) },
	}
	dir := t.TempDir()
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.WindowSize(screenWidth, 900))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses to run as root with its sandbox on
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for name, render := range pages {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := render(&b); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, name+".html")
			if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(ctx, chromedp.EmulateViewport(screenWidth, 900), chromedp.Navigate("file://"+file)); err != nil {
				t.Fatal(err)
			}
			width, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
			if err != nil {
				t.Fatal(err)
			}
			if width > screenWidth {
				past, _ := chromedp.Run(ctx, chromedp.Evaluate[[]string](pastTheEdgeJS))
				t.Errorf("%s is %d px wide at a %d px viewport; past the edge: %q", name, width, screenWidth, past)
			}
		})
	}
}

// pastTheEdgeJS names the first few elements that reach past the
// viewport, with the start of their text.
const pastTheEdgeJS = `Array.from(document.querySelectorAll('body *'))
	.filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
	.slice(0, 5).map(e => e.tagName + ' ' + Math.round(e.getBoundingClientRect().right) + 'px: ' + (e.textContent || '').slice(0, 80))`
