package cli

import (
	"errors"
	"fmt"

	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/plan"
	"github.com/httpvs/httpvs/webpage"
)

// browserFlags are run's flags for loading the page in a real browser.
type browserFlags struct {
	on   bool
	path string
	page string
}

func (b *browserFlags) register(fs *flagset.Set) {
	fs.BoolVar(&b.on, "browser", false, "also load page-load's page in headless Chromium (Debian package "+browser.Package+"), a fresh browser each load, over each transport a browser speaks (h1, h1-tls, h2, h3), across --net's link too: its load-event times beside page-load's model, each object's transport and connection checked against the server's counts (without --scenarios only page-load runs beside it)")
	fs.StringVar(&b.path, "chromium", "", "with --browser: the Chromium `executable` (default: the first of "+fmt.Sprint(browser.Executables)+" on PATH)")
	fs.StringVar(&b.page, "page", "", "with --browser: the child server serves this page for the browser instead of page-load's: a `dir`ectory with an index.html, or a HAR file's objects (as serve --page)")
}

// apply checks the browser flags, reads --page, and sets opts.Browser:
// the experiment runs page-load alone beside it without --scenarios, and
// without it when Chromium is not installed (warn says so).
func (b *browserFlags) apply(fs *flagset.Set, f *runFlags, opts *plan.Options) error {
	switch {
	case !b.on && (b.path != "" || b.page != ""):
		return usagef("--chromium and --page go with --browser")
	case b.page != "" && f.external():
		return usagef("--page is served by the child server; for --target, start that server with httpvs serve --page")
	case !b.on:
		return nil
	}
	bo := &plan.BrowserOptions{Path: b.path}
	if fs.Given()["repeat"] {
		bo.Rounds = f.xo.Matrix.Repeat
	}
	var err error
	if bo.Page, err = readPage(b.page); err != nil {
		return err
	}
	var nf *browser.NotFoundError
	if _, err := browser.Find(b.path); b.path != "" && errors.As(err, &nf) {
		return usagef("--chromium %s: %v", b.path, nf.Err)
	}
	opts.Browser = bo
	return nil
}

// readPage reads --page: a directory or a HAR file; one it cannot read is
// a usage error in one line. No name is no page (nil).
func readPage(name string) (*webpage.Page, error) {
	if name == "" {
		return nil, nil
	}
	page, err := webpage.Read(name) // validated
	if err != nil {
		return nil, usagef("--page: %v", err)
	}
	return &page, nil
}
