package webpage

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// Bounds on a user's page: a page past them is refused, not cut.
const (
	// MaxObjects is the most objects a page read from a directory or a
	// HAR file may have.
	MaxObjects = 10000
	// MaxHARBytes is the largest HAR file read, bytes: 256 MiB.
	MaxHARBytes = 256 << 20
)

// IndexFile is the document of a directory page.
const IndexFile = "index.html"

// Read reads a user's page from name: a directory (FromDir) or a HAR file
// (FromHAR).
func Read(name string) (Page, error) {
	st, err := os.Stat(name)
	if err != nil {
		return Page{}, fmt.Errorf("read page %s: %w", name, unwrapPath(err))
	}
	if st.IsDir() {
		return FromDir(name)
	}
	return FromHAR(name)
}

// FromDir reads the page in dir: its index.html as the document, then
// every other regular file under it (hidden ones too), in path order, each
// with its size and a kind from its extension. The browser fetches what
// index.html references, relative to it; the model fetches every file.
func FromDir(dir string) (Page, error) {
	p := Page{Dir: dir, Source: "directory " + dir}
	st, err := os.Stat(filepath.Join(dir, IndexFile))
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		if _, derr := os.ReadDir(dir); derr != nil {
			return Page{}, fmt.Errorf("read page directory %s: %w", dir, unwrapPath(derr))
		}
		return Page{}, fmt.Errorf("page directory %s has no %s", dir, IndexFile)
	case err != nil:
		return Page{}, fmt.Errorf("read page directory %s: %w", dir, unwrapPath(err))
	case !st.Mode().IsRegular():
		return Page{}, fmt.Errorf("page directory %s: %s is not a file", dir, IndexFile)
	}
	p.Objects = append(p.Objects, Object{Kind: KindHTML, Bytes: st.Size(), Path: IndexFile})
	var rest []Object
	err = filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// Dotfiles and dot-directories (.git, .env) are not the page's:
		// serve never serves them.
		if name != dir && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == IndexFile {
			return nil
		}
		if len(rest)+1 >= MaxObjects {
			return fmt.Errorf("more than %d files", MaxObjects)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rest = append(rest, Object{Kind: kindOfName(rel), Bytes: info.Size(), Path: rel})
		return nil
	})
	if err != nil {
		return Page{}, fmt.Errorf("read page directory %s: %w", dir, unwrapPath(err))
	}
	slices.SortFunc(rest, func(a, b Object) int { return strings.Compare(a.Path, b.Path) })
	p.Objects = append(p.Objects, rest...)
	return p, nil
}

// kindOfName is a file's kind by its extension.
func kindOfName(name string) string {
	return kindOfType(mime.TypeByExtension(path.Ext(name)), path.Ext(name))
}

// kindOfType is an object's kind by its content type, or its extension
// when the type says nothing.
func kindOfType(ctype, ext string) string {
	ctype, _, _ = strings.Cut(strings.ToLower(ctype), ";")
	ext = strings.ToLower(ext)
	switch {
	case ctype == "text/html" || ext == ".html" || ext == ".htm":
		return KindHTML
	case ctype == "text/css" || ext == ".css":
		return KindCSS
	case strings.Contains(ctype, "javascript") || strings.Contains(ctype, "ecmascript") || ext == ".js" || ext == ".mjs":
		return KindJS
	case strings.HasPrefix(ctype, "image/"):
		return KindImage
	case strings.HasPrefix(ctype, "font/") || strings.Contains(ctype, "font") || ext == ".woff" || ext == ".woff2" || ext == ".ttf" || ext == ".otf":
		return KindFont
	}
	return KindOther
}

// har is the part of a HAR file (HTTP Archive 1.2) FromHAR reads.
type har struct {
	Log *struct {
		Entries []struct {
			Request struct {
				URL string `json:"url"`
			} `json:"request"`
			Response struct {
				Status   int   `json:"status"`
				BodySize int64 `json:"bodySize"`
				Content  struct {
					Size     int64  `json:"size"`
					MimeType string `json:"mimeType"`
				} `json:"content"`
			} `json:"response"`
		} `json:"entries"`
	} `json:"log"`
}

// FromHAR reads the objects of the page a HAR file recorded (a browser's
// developer tools save one: Network, "Save all as HAR"): each entry
// answered 2xx becomes an object with its body size (its content's size,
// else the bytes on the wire) and a kind from its content type. The first
// HTML entry is the document; the others follow in the HAR's order. Every
// origin's objects are served by the one server, and the content is made
// up: the page keeps the recording's shape, not its bytes.
func FromHAR(name string) (Page, error) {
	f, err := os.Open(name)
	if err != nil {
		return Page{}, fmt.Errorf("read HAR file %s: %w", name, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxHARBytes+1))
	if err != nil {
		return Page{}, fmt.Errorf("read HAR file %s: %w", name, unwrapPath(err))
	}
	if len(data) > MaxHARBytes {
		return Page{}, fmt.Errorf("HAR file %s is larger than %d MiB", name, MaxHARBytes>>20)
	}
	return parseHAR(data, name)
}

// parseHAR reads the page of a HAR file's content data; name is for
// messages.
func parseHAR(data []byte, name string) (Page, error) {
	var h har
	if err := json.Unmarshal(data, &h); err != nil || h.Log == nil {
		if err == nil {
			err = errors.New(`no "log" object`)
		}
		return Page{}, fmt.Errorf("%s is not a HAR file (a directory or a .har of the page): %v", name, err)
	}
	doc := -1
	var objs []Object
	for _, e := range h.Log.Entries {
		r := e.Response
		if r.Status < 200 || r.Status > 299 {
			continue
		}
		if len(objs) >= MaxObjects {
			return Page{}, fmt.Errorf("HAR file %s has more than %d objects", name, MaxObjects)
		}
		size := r.Content.Size
		if size <= 0 {
			size = max(r.BodySize, 0)
		}
		kind := kindOfType(r.Content.MimeType, path.Ext(urlPath(e.Request.URL)))
		if kind == KindHTML && doc < 0 {
			doc = len(objs)
		} else if kind == KindHTML {
			kind = KindOther // a frame's document: fetched as an object
		}
		objs = append(objs, Object{Kind: kind, Bytes: size})
	}
	if doc < 0 {
		return Page{}, fmt.Errorf("HAR file %s has no HTML document among its %d entries answered 2xx", name, len(objs))
	}
	first := objs[doc]
	page := Page{Objects: append([]Object{first}, slices.Delete(objs, doc, doc+1)...)}
	page.Source = fmt.Sprintf("HAR file %s (%d objects)", name, len(page.Objects))
	return page, page.Validate()
}

// urlPath is a URL's path, without its query.
func urlPath(u string) string {
	u, _, _ = strings.Cut(u, "?")
	u, _, _ = strings.Cut(u, "#")
	return u
}

// unwrapPath drops a *fs.PathError's operation and path, which the
// caller's message already names.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
