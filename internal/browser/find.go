package browser

import (
	"fmt"
	"os/exec"
	"strings"
)

// Executables are the names Find looks for on PATH, in order.
var Executables = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "headless_shell"}

// Package is the Debian package that installs Chromium.
const Package = "chromium"

// NotFoundError says no browser was found to run.
type NotFoundError struct {
	// Path is the executable asked for; "" when Find searched PATH for
	// Executables.
	Path string
	Err  error // what exec.LookPath said
}

func (e *NotFoundError) Error() string {
	if e.Path != "" {
		return fmt.Sprintf("Chromium %s not found (%v): install it (Debian: apt-get install %s)", e.Path, e.Err, Package)
	}
	return fmt.Sprintf("Chromium not found (looked for %s on PATH): install it (Debian: apt-get install %s)", strings.Join(Executables, ", "), Package)
}

func (e *NotFoundError) Unwrap() error { return e.Err }

// Find returns the browser executable to run: path when it is not empty
// (a name looked up on PATH, or a file), else the first of Executables on
// PATH. A browser it cannot find is a *NotFoundError.
func Find(path string) (string, error) {
	if path != "" {
		found, err := exec.LookPath(path)
		if err != nil {
			return "", &NotFoundError{Path: path, Err: err}
		}
		return found, nil
	}
	for _, name := range Executables {
		if found, err := exec.LookPath(name); err == nil {
			return found, nil
		}
	}
	return "", &NotFoundError{Err: exec.ErrNotFound}
}
