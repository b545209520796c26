package flagset

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/httpvs/httpvs/config"
	"github.com/httpvs/httpvs/units"
)

// newTestSet is a command with an int (-c, --conns), a duration that may
// be zero, a size, a header flag and a renamed flag.
func newTestSet(out *bytes.Buffer) (*Set, *int, *time.Duration, *units.Bytes, *Header) {
	fs := New("demo", "URL [flags]", out)
	conns := fs.Int("c", 1, "connections")
	fs.Alias("c", "conns")
	warmup := fs.Duration("warmup", time.Second, "warm-up")
	fs.AllowZero("warmup", "none")
	var size units.Bytes
	fs.Var(&size, "size", "a `size`")
	fs.Fields(map[string]string{"Conns": "c"})
	var h Header
	fs.HeaderVar(&h)
	fs.Renamed("old", "--old is gone: use --conns")
	fs.Group("load", "c", "warmup")
	return fs, conns, warmup, &size, &h
}

// TestParse: flags anywhere among the arguments, aliases, "--", and the
// spelling the user typed.
func TestParse(t *testing.T) {
	fs, conns, warmup, size, h := newTestSet(&bytes.Buffer{})
	pos, err := fs.Parse([]string{"http://x/", "--conns", "3", "--warmup", "0", "-H", "X-A: 1", "--", "-c"})
	if err != nil {
		t.Fatal(err)
	}
	if len(pos) != 2 || pos[0] != "http://x/" || pos[1] != "-c" || *conns != 3 || *warmup != 0 || *size != 0 || h.H.Get("X-A") != "1" {
		t.Fatalf("positional %q, conns %d, warmup %v, size %v, header %v", pos, *conns, *warmup, *size, h.H)
	}
	if set := fs.Given(); !set["c"] || !set["conns"] || !set["warmup"] || set["size"] {
		t.Fatalf("given %v", set)
	}
	if got := fs.Typed("c"); got != "--conns" {
		t.Fatalf("typed %q, want --conns", got)
	}
}

// TestRefusals: each bad input is a *UsageError naming the flag and what
// would be right.
func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-c", "0"}, "-c 0: want at least 1"},
		{[]string{"--size", "0"}, "--size 0: want a positive size, e.g. 64Ki"},
		{[]string{"--warmup", "0"}, ""},
		{[]string{"--warmup", "-1s"}, "--warmup -1s: want 0 (none) or more"},
		{[]string{"--con", "2"}, "unknown flag --con: did you mean --conns?"},
		{[]string{"--zzzzzz"}, "unknown flag --zzzzzz"},
		{[]string{"--old", "1"}, "--old is gone: use --conns"},
		{[]string{"-H", "Host: x"}, "Host is set by the client"},
		{[]string{"-H", "no colon"}, `want "Name: value"`},
	} {
		fs, _, _, _, _ := newTestSet(&bytes.Buffer{})
		_, err := fs.Parse(tc.args)
		if tc.want == "" {
			if err != nil {
				t.Errorf("%q: %v", tc.args, err)
			}
			continue
		}
		var ue *UsageError
		if !errors.As(err, &ue) || !strings.Contains(ue.Msg, tc.want) {
			t.Errorf("%q: %v, want a usage error with %q", tc.args, err, tc.want)
		}
	}
}

// TestCheckNamesTheFlag: a library's *config.FieldError comes back naming
// the flag for that field, in the spelling the user typed; an unmapped
// field keeps the library's words.
func TestCheckNamesTheFlag(t *testing.T) {
	fs, _, _, _, _ := newTestSet(&bytes.Buffer{})
	err := fs.Check(&config.FieldError{Field: "Conns", Value: "-2", Want: "at least 1"})
	var ue *UsageError
	if !errors.As(err, &ue) || ue.Msg != "-c -2: want at least 1" {
		t.Fatalf("%v", err)
	}
	if err := fs.Check(nil); err != nil {
		t.Fatal(err)
	}
	// Given, the flag is named as typed.
	if _, err := fs.Parse([]string{"--conns", "16"}); err != nil {
		t.Fatal(err)
	}
	if err := fs.Check(&config.FieldError{Field: "Conns", Value: 16, Want: "at most 8"}); !errors.As(err, &ue) || ue.Msg != "--conns 16: want at most 8" {
		t.Fatalf("given: %v", err)
	}
	other := errors.New("dial failed")
	if err := fs.Check(other); err != other {
		t.Fatalf("%v passed through as %v", other, err)
	}
}

// TestHelp: -h prints the usage line and the flags by group with their
// spellings and defaults, and returns ErrHelp.
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	fs, _, _, _, _ := newTestSet(&out)
	if _, err := fs.Parse([]string{"-h"}); !errors.Is(err, ErrHelp) {
		t.Fatalf("-h: %v", err)
	}
	got := out.String()
	for _, want := range []string{"usage: httpvs demo URL [flags]", "\nload:\n  -c, --conns int\n    \tconnections (default 1)", "\nother:\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("help lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "--old") {
		t.Errorf("help lists the renamed flag:\n%s", got)
	}
}

// TestBody: --body SIZE or @FILE; a file is read whole, a directory and
// a missing file are refused.
func TestBody(t *testing.T) {
	var b Body
	if err := b.Set("64Ki"); err != nil || b.Size != 64*units.KiB || b.File != "" {
		t.Fatalf("64Ki: %v %+v", err, b)
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "body")
	if err := os.WriteFile(name, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.Set("@" + name); err != nil {
		t.Fatal(err)
	}
	if body, err := b.ReadAll(); err != nil || string(body) != "hello" {
		t.Fatalf("%q, %v", body, err)
	}
	for _, bad := range []string{"@" + dir, "@" + filepath.Join(dir, "absent")} {
		if err := b.Set(bad); err != nil {
			t.Fatal(err)
		}
		var ue *UsageError
		if _, _, err := b.Open(); !errors.As(err, &ue) {
			t.Errorf("%s: %v, want a usage error", bad, err)
		}
	}
	if err := b.Set("@"); err == nil {
		t.Error("@ with no file name accepted")
	}
}
