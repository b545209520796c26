package cli

import (
	"errors"
	"fmt"

	"github.com/httpvs/httpvs/internal/browser"
	"github.com/httpvs/httpvs/internal/cli/flagset"
	"github.com/httpvs/httpvs/internal/userns"
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

// apply checks the browser flags, reads --page, and sets opts: the
// browser's options and, without --scenarios, page-load alone. Chromium
// not installed is one line on stderr (but in a run about to run itself
// again in a user namespace, which says it) and a run without the
// browser.
func (b *browserFlags) apply(e *env, fs *flagset.Set, f *runFlags, opts *plan.Options) error {
	switch {
	case !b.on && (b.path != "" || b.page != ""):
		return usagef("--chromium and --page go with --browser")
	case b.page != "" && f.external():
		return usagef("--page is served by the child server; for --target, start that server with httpvs serve --page")
	case !b.on:
		return nil
	}
	if !fs.Given()["scenarios"] {
		pl, _ := plan.ParseScenarios("page-load")
		opts.Scenarios = pl
	}
	bo := &plan.BrowserOptions{Path: b.path}
	if fs.Given()["repeat"] {
		bo.Rounds = f.xo.Matrix.Repeat
	}
	var err error
	if bo.Page, err = readPage(b.page); err != nil {
		return err
	}
	if _, err := browser.Find(b.path); err != nil {
		var nf *browser.NotFoundError
		if !errors.As(err, &nf) {
			return err
		}
		if b.path != "" {
			return usagef("--chromium %s: %v", b.path, nf.Err)
		}
		if !reexecs(f) {
			e.say("--browser: %v; measuring without it", err)
		}
		return nil
	}
	opts.Browser = bo
	return nil
}

// reexecs says whether run is about to run itself again in a user
// namespace (inUserNS), which then prints what this one would.
func reexecs(f *runFlags) bool {
	return len(f.net.Values) > 0 && userns.Needed()
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
