package report

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/httpvs/httpvs/internal/browser"
)

// TestHistoryPageFitsTheScreen loads history.html for twelve runs in
// headless Chromium at a viewport 1,366 px wide, as TestPagesFitTheScreen
// loads report.html: the page is no wider, and every interval bar is
// drawn on screen, taller than a point (the intervals show). With
// HTTPVS_SCREENSHOTS set to a directory it saves the screenshot there.
func TestHistoryPageFitsTheScreen(t *testing.T) {
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
	runs := historyRuns(12)
	var b bytes.Buffer
	if err := historyHTML(&b, runs, DefaultHistoryCells(runs)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "history.html")
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(path), chromedp.UserDataDir(filepath.Join(dir, "profile")),
		chromedp.WindowSize(screenWidth, 900))
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox)
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	ctx, cancelTab := chromedp.NewContext(actx)
	defer cancelTab()
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(screenWidth, 900), chromedp.Navigate("file://"+file)); err != nil {
		t.Fatal(err)
	}
	width, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.documentElement.scrollWidth`))
	if err != nil {
		t.Fatal(err)
	}
	if width > screenWidth {
		t.Errorf("history.html is %d px wide at a %d px viewport", width, screenWidth)
	}
	// Each bar's height on screen, and a point's.
	bars, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`Array.from(document.querySelectorAll('line.interval')).map(e => e.getBoundingClientRect().height)`))
	if err != nil {
		t.Fatal(err)
	}
	point, err := chromedp.Run(ctx, chromedp.Evaluate[float64](`document.querySelector('circle.point').getBoundingClientRect().height`))
	if err != nil {
		t.Fatal(err)
	}
	if want := 2 * (len(runs) - 1); len(bars) != want {
		t.Errorf("%d interval bars, want %d", len(bars), want)
	}
	for i, h := range bars {
		if h <= point {
			t.Errorf("bar %d is %.1f px tall, no taller than a point (%.1f px)", i, h, point)
		}
	}
	if out := os.Getenv("HTTPVS_SCREENSHOTS"); out != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, "history.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
