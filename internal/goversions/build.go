package goversions

import (
	"bytes"
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/childproc"
)

// source is the program each toolchain builds (child/, a module of its
// own whose go.mod and go.sum are stored as .txt files: a go.mod inside
// httpvs's module would make the directory another module, which go:embed
// refuses).
//
//go:embed child/*.go child/go.mod.txt child/go.sum.txt
var source embed.FS

// DefaultBuildTimeout bounds fetching one toolchain and building the
// program with it when Options.BuildTimeout is zero: 10 minutes (a
// toolchain is about 70 MB from the module proxy).
const DefaultBuildTimeout = 10 * time.Minute

// Build stages, as BuildError.Stage names them.
const (
	StageFindGo = "find go" // no go command on PATH
	StageFetch  = "fetch"   // the go command could not download or run the toolchain
	StageBuild  = "build"   // the toolchain could not build the program
	StageCache  = "cache"   // the binary could not be written to the cache
)

// BuildError says why a toolchain could not build the program.
type BuildError struct {
	Version string // as asked: Installed or a toolchain name
	Stage   string // StageFindGo, StageFetch, StageBuild or StageCache
	Err     error  // the go command's own words, on one line
}

func (e *BuildError) Error() string { return fmt.Sprintf("%s: %s: %v", e.Version, e.Stage, e.Err) }
func (e *BuildError) Unwrap() error { return e.Err }

// Binary is the program built by one toolchain.
type Binary struct {
	Toolchain string        // the release that built it, e.g. go1.24.13
	Path      string        // the executable, in the cache
	Cached    bool          // built by an earlier call
	Took      time.Duration // fetching and building; zero when cached
}

// DefaultCacheDir is where binaries are kept when Options.CacheDir is
// empty: os.UserCacheDir()/httpvs/go, one directory per toolchain.
func DefaultCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("go versions cache: %w", err)
	}
	return filepath.Join(dir, "httpvs", "go"), nil
}

// Build returns the program built by version (Installed or a toolchain
// name from ParseVersion), building it into cacheDir/<toolchain>/ unless
// a binary of the same source is there already. The go command on PATH
// fetches a named toolchain through the module proxy (GOTOOLCHAIN), into
// the module cache; the build runs in a temporary copy of the embedded
// source, removed after. Errors are *BuildError.
func Build(ctx context.Context, version, cacheDir string) (Binary, error) {
	fail := func(stage string, err error) (Binary, error) {
		return Binary{}, &BuildError{Version: version, Stage: stage, Err: err}
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return fail(StageFindGo, err)
	}
	start := time.Now()
	work, err := os.MkdirTemp("", "httpvs-goversion-*")
	if err != nil {
		return fail(StageBuild, err)
	}
	defer os.RemoveAll(work)
	toolchain := version
	if version == Installed {
		toolchain = "local"
	}
	// Asking the toolchain its version fetches it, when it is not in the
	// module cache yet.
	out, err := goRun(ctx, goCmd, work, toolchain, "env", "GOVERSION")
	if err != nil {
		return fail(StageFetch, err)
	}
	got := strings.TrimSpace(out)
	if version != Installed && got != version {
		return fail(StageFetch, fmt.Errorf("GOTOOLCHAIN=%s runs %q", version, got))
	}
	hash, err := sourceHash()
	if err != nil {
		return fail(StageBuild, err)
	}
	bin := Binary{Toolchain: got, Path: filepath.Join(cacheDir, got, "child-"+hash+exeSuffix())}
	if fi, err := os.Stat(bin.Path); err == nil && fi.Mode().IsRegular() {
		bin.Cached = true
		return bin, nil
	}
	if err := writeSource(work, got); err != nil {
		return fail(StageBuild, err)
	}
	if err := os.MkdirAll(filepath.Dir(bin.Path), 0o755); err != nil {
		return fail(StageCache, err)
	}
	// Built beside its final name and renamed, so that a concurrent run
	// never starts a half-written binary.
	tmp := fmt.Sprintf("%s.tmp-%d", bin.Path, os.Getpid())
	defer os.Remove(tmp)
	if _, err := goRun(ctx, goCmd, work, toolchain, "build", "-trimpath", "-buildvcs=false", "-o", tmp, "."); err != nil {
		return fail(StageBuild, err)
	}
	if err := os.Rename(tmp, bin.Path); err != nil {
		return fail(StageCache, err)
	}
	removeStale(bin.Path)
	bin.Took = time.Since(start)
	return bin, nil
}

// removeStale removes the binaries beside keep built from other sources
// (earlier versions of the embedded program), leaving builds in progress.
func removeStale(keep string) {
	old, _ := filepath.Glob(filepath.Join(filepath.Dir(keep), "child-*"))
	for _, f := range old {
		if f != keep && !strings.Contains(filepath.Base(f), ".tmp-") {
			os.Remove(f)
		}
	}
}

func exeSuffix() string {
	if runtime.GOOS == "windows" {
		return ".exe"
	}
	return ""
}

// goRun runs the go command in dir with GOTOOLCHAIN=toolchain and returns
// its standard output, or an error of one line from what it printed.
func goRun(ctx context.Context, goCmd, dir, toolchain string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Dir = dir
	cmd.Env = goEnv(toolchain)
	// Stopped with the compilers and linker it started, when ctx ends.
	childproc.Detach(cmd)
	cmd.Cancel = func() error { return childproc.KillGroup(cmd) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// Run on one thread, held: the kernel kills the go command (Pdeathsig)
	// when the thread that started it ends.
	runtime.LockOSThread()
	err := cmd.Run()
	runtime.UnlockOSThread()
	if ctx.Err() != nil {
		return "", fmt.Errorf("go %s: %w", args[0], ctx.Err())
	}
	if err != nil {
		if msg := oneLine(stderr.String()); msg != "" {
			return "", errors.New(msg)
		}
		return "", fmt.Errorf("go %s: %w", args[0], err)
	}
	return stdout.String(), nil
}

// goEnv is this process's environment with the go command's settings for
// building the program: the toolchain, modules resolved from go.mod
// (-mod=mod), no workspace, no cgo (the program needs none, and a
// toolchain then needs no C compiler).
func goEnv(toolchain string) []string {
	var env []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "GOTOOLCHAIN", "GOFLAGS", "GOWORK", "CGO_ENABLED", "GOOS", "GOARCH":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "GOTOOLCHAIN="+toolchain, "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
}

// oneLine joins the lines of the go command's message that say something
// ("go: downloading" lines are progress), trimmed to 400 characters.
func oneLine(text string) string {
	var parts []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "go: downloading ") {
			continue
		}
		parts = append(parts, l)
	}
	s := strings.Join(parts, "; ")
	if len(s) > 400 {
		s = s[:400] + "..."
	}
	return s
}

// goLinePattern finds go.mod's go line.
var goLinePattern = regexp.MustCompile(`(?m)^go [^\s]+$`)

// writeSource writes the program's module to dir, its go line set to
// toolchain's version.
func writeSource(dir, toolchain string) error {
	return fs.WalkDir(source, "child", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := source.ReadFile(name)
		if err != nil {
			return err
		}
		base := strings.TrimSuffix(path.Base(name), ".txt")
		if base == "go.mod" {
			b = goLinePattern.ReplaceAll(b, []byte("go "+goLine(toolchain)))
		}
		return os.WriteFile(filepath.Join(dir, base), b, 0o644)
	})
}

// sourceHash names the embedded source: 12 hex digits of a SHA-256 over
// its files' names and contents, so that a changed program is rebuilt.
func sourceHash() (string, error) {
	h := sha256.New()
	err := fs.WalkDir(source, "child", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := source.ReadFile(name)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %d\n", name, len(b))
		h.Write(b)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}
