package server

import (
	"errors"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/httpvs/httpvs/internal/pagesite"
	"github.com/httpvs/httpvs/webpage"
)

// pageSite is the page served under pagesite.DocumentPath: a synthetic
// page's document (its objects are /bytes/{size}), or a directory's files.
type pageSite struct {
	err  error // why the page cannot be served; nil when it can
	page webpage.Page
	doc  []byte   // the synthetic page's document; nil for a directory
	root *os.Root // the directory's files; nil for a synthetic page
}

// newPageSite opens p for serving; nil p is page-load's page
// (webpage.Median). A page that cannot be served is one whose err says
// why.
func newPageSite(p *webpage.Page) *pageSite {
	if p == nil {
		m := webpage.Median()
		p = &m
	}
	site := &pageSite{page: *p}
	if site.err = p.Validate(); site.err != nil {
		return site
	}
	if p.Dir == "" {
		site.doc = pagesite.Document(*p)
		return site
	}
	site.root, site.err = os.OpenRoot(p.Dir)
	return site
}

// pageError says why Options.Page cannot be served; nil when it can.
func (s *Server) pageError() error { return s.page.err }

// handlePage serves the page: GET /page/ is its document, GET /page/{path}
// a directory page's file; each counted on the request's transport.
func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	site := s.page
	if site.err != nil {
		http.Error(w, site.err.Error(), http.StatusInternalServerError)
		return
	}
	name := r.PathValue("path")
	if site.root == nil {
		s.serveSynthetic(w, r, name)
		return
	}
	if name == "" {
		name = site.page.Objects[0].Path // the document (webpage.Read)
	}
	if hidden(name) {
		// .env, .git/config, .htpasswd: what a directory holds beside
		// its page is not the page's.
		http.NotFound(w, r)
		return
	}
	f, err := site.root.Open(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		if errors.Is(err, fs.ErrPermission) {
			http.Error(w, "forbidden", http.StatusForbidden)
			return
		}
		http.NotFound(w, r)
		return
	}
	ctype := mime.TypeByExtension(path.Ext(name))
	if ctype == "" {
		ctype = "application/octet-stream"
	}
	s.servePageBytes(w, r, ctype, st.Size(), func(w io.Writer) (int64, error) { return io.Copy(w, f) })
}

// serveSynthetic answers r with a synthetic page's document (name "") or
// its object called name.
func (s *Server) serveSynthetic(w http.ResponseWriter, r *http.Request, name string) {
	site := s.page
	if name == "" {
		s.servePageBytes(w, r, "text/html; charset=utf-8", int64(len(site.doc)), func(w io.Writer) (int64, error) {
			n, err := w.Write(site.doc)
			return int64(n), err
		})
		return
	}
	i, ok := pagesite.SyntheticIndex(site.page, name)
	if !ok {
		http.NotFound(w, r)
		return
	}
	c := pagesite.ObjectContent(site.page, i)
	s.servePageBytes(w, r, c.Type, c.Size, c.WriteTo)
}

// servePageBytes answers r with size bytes of ctype that write writes,
// counted on r's transport.
func (s *Server) servePageBytes(w http.ResponseWriter, r *http.Request, ctype string, size int64, write func(io.Writer) (int64, error)) {
	c := s.counter(r)
	c.requests.Add(1)
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.FormatInt(size, 10))
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	s.inflight.Add(1)
	defer s.inflight.Add(-1)
	start := time.Now()
	if _, err := write(&countingWriter{ResponseWriter: w, c: c}); err != nil {
		c.aborted.Add(1)
	}
	c.transferNanos.Add(int64(time.Since(start)))
}

// hidden reports whether a page path names a dotfile or passes through a
// dot-directory (any element starting with ".", "." and ".." included).
func hidden(name string) bool {
	for elem := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(elem, ".") {
			return true
		}
	}
	return false
}
