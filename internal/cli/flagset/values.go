package flagset

import (
	"fmt"
	"net/http"
	"net/textproto"
	"os"
	"slices"
	"strings"

	"github.com/httpvs/httpvs/internal/requests"
	"github.com/httpvs/httpvs/units"
	"golang.org/x/net/http/httpguts"
)

// Header collects -H "Name: value" lines, checked as they come.
type Header struct{ H http.Header }

// clientSet are the headers the clients write themselves from the URL
// and the body: a second copy would make a malformed request.
var clientSet = []string{"Host", "Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive", "Proxy-Connection", "Te", "Upgrade"}

func (f *Header) String() string {
	var lines []string
	for k, vs := range f.H {
		for _, v := range vs {
			lines = append(lines, k+": "+v)
		}
	}
	slices.Sort(lines)
	return strings.Join(lines, ", ")
}

func (f *Header) Set(line string) error {
	name, value, ok := strings.Cut(line, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	switch {
	case !ok || !httpguts.ValidHeaderFieldName(name):
		return fmt.Errorf("want \"Name: value\", e.g. -H 'Authorization: Bearer x'")
	case !httpguts.ValidHeaderFieldValue(value):
		return fmt.Errorf("header %s: the value holds a control character", name)
	}
	name = textproto.CanonicalMIMEHeaderKey(name)
	if slices.Contains(clientSet, name) {
		return fmt.Errorf("%s is set by the client from the URL and the body; it cannot be given", name)
	}
	if f.H == nil {
		f.H = http.Header{}
	}
	f.H.Add(name, value)
	return nil
}

// HeaderVar registers -H/--header on fs, collected in h.
func (fs *Set) HeaderVar(h *Header) {
	fs.Var(h, "H", "extra request header `\"Name: value\"`, sent with every request; repeatable (as curl -H)")
	fs.Alias("H", "header")
}

// Body is --body SIZE or --body @FILE (curl's syntax).
type Body struct {
	Size units.Bytes
	File string // set by @FILE
}

func (b *Body) String() string {
	if b.File != "" {
		return "@" + b.File
	}
	return b.Size.String()
}

func (b *Body) Set(s string) error {
	if name, ok := strings.CutPrefix(s, "@"); ok {
		if name == "" {
			return fmt.Errorf("want @FILE, a file's name after the @")
		}
		b.File, b.Size = name, 0
		return nil
	}
	b.File = ""
	return b.Size.Set(s)
}

// Open opens --body's file (requests.OpenBody) and returns it with its
// size.
func (b *Body) Open() (*os.File, units.Bytes, error) {
	f, size, err := requests.OpenBody(b.File)
	if err != nil {
		return nil, 0, Usagef("--body @%s: %v", b.File, err)
	}
	return f, size, nil
}

// ReadAll reads --body's file whole (requests.ReadBody: up to 1Gi), for a
// body sent many times.
func (b *Body) ReadAll() ([]byte, error) {
	body, err := requests.ReadBody(b.File)
	if err != nil {
		return nil, Usagef("--body @%s: %v", b.File, err)
	}
	return body, nil
}
