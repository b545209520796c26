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
	maxObjects = 10000
	// MaxHARBytes is the largest HAR file read, bytes: 256 MiB.
	maxHARBytes = 256 << 20
)

// indexFile is the document of a directory page.
const indexFile = "index.html"

// Read reads a user's page from name: a directory (fromDir) or a HAR file
// (fromHAR). Both return a page that passes Validate, or an error.
func Read(name string) (Page, error) {
	st, err := os.Stat(name)
	if err != nil {
		return Page{}, fmt.Errorf("read page %s: %w", name, unwrapPath(err))
	}
	if st.IsDir() {
		return fromDir(name)
	}
	return fromHAR(name)
}

// fromDir reads the page in dir: its index.html as the document, then
// every other regular file under it (hidden ones too), in path order, each
// with its size and a kind from its extension. The browser fetches what
// index.html references, relative to it; the model fetches every file.
func fromDir(dir string) (Page, error) {
	p := Page{Dir: dir, Source: "directory " + dir}
	st, err := os.Stat(filepath.Join(dir, indexFile))
	switch {
	case err != nil && errors.Is(err, fs.ErrNotExist):
		if _, derr := os.ReadDir(dir); derr != nil {
			return Page{}, fmt.Errorf("read page directory %s: %w", dir, unwrapPath(derr))
		}
		return Page{}, fmt.Errorf("page directory %s has no %s", dir, indexFile)
	case err != nil:
		return Page{}, fmt.Errorf("read page directory %s: %w", dir, unwrapPath(err))
	case !st.Mode().IsRegular():
		return Page{}, fmt.Errorf("page directory %s: %s is not a file", dir, indexFile)
	}
	p.Objects = append(p.Objects, Object{Kind: KindHTML, Bytes: st.Size(), Path: indexFile})
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
		if rel == indexFile {
			return nil
		}
		if len(rest)+1 >= maxObjects {
			return fmt.Errorf("more than %d files", maxObjects)
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
	return p, p.Validate()
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

// har is the part of a HAR file (HTTP Archive 1.2) fromHAR reads.
type har struct {
	Log *struct {
		Entries []struct {
			Request struct {
				URL string `json:"url"`
			} `json:"request"`
			// Initiator is Chromium's (DevTools' "Save all as HAR"): what
			// made the browser fetch the entry, by URL.
			Initiator *initiator `json:"_initiator"`
			Response  struct {
				Status   int   `json:"status"`
				BodySize int64 `json:"bodySize"`
				Content  struct {
					Size     int64  `json:"size"`
					MimeType string `json:"mimeType"`
					// Text is the body when the HAR kept it (text
					// types); Encoding "base64" when it is encoded.
					Text     string `json:"text"`
					Encoding string `json:"encoding"`
				} `json:"content"`
			} `json:"response"`
		} `json:"entries"`
	} `json:"log"`
}

// fromHAR reads the objects of the page a HAR file recorded (a browser's
// developer tools save one: Network, "Save all as HAR"): each entry
// answered 2xx becomes an object with its body size (its content's size,
// else the bytes on the wire) and a kind from its content type. The first
// HTML entry is the document; the others follow in the HAR's order. Every
// origin's objects are served by the one server, and the content is made
// up: the page keeps the recording's shape, not its bytes.
func fromHAR(name string) (Page, error) {
	f, err := os.Open(name)
	if err != nil {
		return Page{}, fmt.Errorf("read HAR file %s: %w", name, unwrapPath(err))
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxHARBytes+1))
	if err != nil {
		return Page{}, fmt.Errorf("read HAR file %s: %w", name, unwrapPath(err))
	}
	if len(data) > maxHARBytes {
		return Page{}, fmt.Errorf("HAR file %s is larger than %d MiB", name, maxHARBytes>>20)
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
	var urls, from, texts []string // each object's URL, its initiator's, and its body's text
	for _, e := range h.Log.Entries {
		r := e.Response
		if r.Status < 200 || r.Status > 299 {
			continue
		}
		if len(objs) >= maxObjects {
			return Page{}, fmt.Errorf("HAR file %s has more than %d objects", name, maxObjects)
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
		urls, from = append(urls, urlPath(e.Request.URL)), append(from, e.Initiator.url())
		text := r.Content.Text
		if r.Content.Encoding != "" {
			text = "" // base64: an image's or a font's, which references nothing
		}
		texts = append(texts, text)
	}
	if doc < 0 {
		return Page{}, fmt.Errorf("HAR file %s has no HTML document among its %d entries answered 2xx", name, len(objs))
	}
	referencedBy(urls, from, texts, objs, doc)
	page, dependents := harTree(objs, urls, from, doc)
	page.Source = fmt.Sprintf("HAR file %s (%d objects, %d fetched by another than the document)", name, len(page.Objects), dependents)
	return page, page.Validate()
}

// harTree is the page of a HAR's objects: the document (objs[doc]) first,
// the others in the HAR's order, each hanging off the object that
// initiated it (from, by URL; urls are the objects' own) where that one
// came earlier and can fetch it (canFetch), else off the document; and
// how many do not hang off the document.
func harTree(objs []Object, urls, from []string, doc int) (Page, int) {
	order := []int{doc} // the document first, then the others in the HAR's order
	for i := range objs {
		if i != doc {
			order = append(order, i)
		}
	}
	page := Page{}
	at := map[string]int{} // URL -> index in page, the first entry of each
	for i, k := range order {
		page.Objects = append(page.Objects, objs[k])
		if _, dup := at[urls[k]]; !dup {
			at[urls[k]] = i
		}
	}
	dependents := 0
	for i, k := range order {
		if pi, ok := at[from[k]]; ok && i > 0 && pi < i && canFetch(page.Objects[pi].Kind, page.Objects[i].Kind) {
			page.Objects[i].Parent = pi
		}
		if page.Objects[i].Parent != 0 {
			dependents++
		}
	}
	return page, dependents
}

// referencedBy fills in, for each object whose initiator the HAR does not
// name (from[i] == ""), the stylesheet or script that references it when
// the HAR kept their text: the first earlier one whose text holds the
// object's URL or path, unless the document's text does too (the
// document then references it itself).
func referencedBy(urls, from, texts []string, objs []Object, doc int) {
	for i := range objs {
		if from[i] != "" || i == doc {
			continue
		}
		if mentions(texts[doc], urls[i]) {
			from[i] = urls[doc]
			continue
		}
		for j := 0; j < i; j++ {
			if (objs[j].Kind == KindCSS || objs[j].Kind == KindJS) && mentions(texts[j], urls[i]) {
				from[i] = urls[j]
				break
			}
		}
	}
}

// mentions says whether text refers to the object at u: its URL, or its
// path from the root (how a page on the same origin writes it).
func mentions(text, u string) bool {
	if text == "" || u == "" {
		return false
	}
	if strings.Contains(text, u) {
		return true
	}
	if _, rest, ok := strings.Cut(u, "://"); ok {
		if i := strings.Index(rest, "/"); i >= 0 && len(rest[i:]) > 1 {
			return strings.Contains(text, rest[i:])
		}
	}
	return false
}

// initiator is what a HAR entry says made the browser fetch it
// (Chromium's _initiator): the parser of a document or stylesheet at URL,
// or a script, whose call stack's frames name it.
type initiator struct {
	Type  string `json:"type"`
	URL   string `json:"url"`
	Stack *struct {
		CallFrames []struct {
			URL string `json:"url"`
		} `json:"callFrames"`
	} `json:"stack"`
}

// url is the URL of the object that initiated the fetch, without query
// or fragment; "" when the HAR does not say (the document is then taken
// as the initiator).
func (in *initiator) url() string {
	switch {
	case in == nil:
		return ""
	case in.URL != "":
		return urlPath(in.URL)
	case in.Stack != nil && len(in.Stack.CallFrames) > 0:
		return urlPath(in.Stack.CallFrames[0].URL)
	}
	return ""
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
