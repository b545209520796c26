// Package webpage is a web page as a list of objects: page-load's page
// (Median, the HTTP Archive's median page at a third of its size), a
// user's directory of files or a HAR file's objects (Read),
// and the HTML document that makes a browser fetch every one of them. The
// payload server serves it; the page-load model and a real browser load
// it. It does no I/O beyond reading the user's files.
package webpage

import (
	"fmt"
	"net/url"
	"strings"
)

// Object kinds: what a document references an object as, which decides
// how a browser fetches it (its priority, whether it delays the load
// event).
const (
	KindHTML  = "html"  // the document
	KindCSS   = "css"   // <link rel=stylesheet>
	KindJS    = "js"    // <script src defer>
	KindImage = "image" // <img>
	KindFont  = "font"  // <link rel=preload as=font>
	KindOther = "other" // <link rel=preload as=fetch>: JSON, XHR, media
)

// Object is one object of a page.
type Object struct {
	Kind  string `json:"kind"`  // KindHTML, KindCSS, KindJS, KindImage, KindFont or KindOther
	Bytes int64  `json:"bytes"` // body size, bytes
	// Path is the object's file under the page's directory, slash
	// separated (a directory page); "" for an object of a synthetic page, which
	// the server makes up from its size.
	Path string `json:"path,omitempty"`
	// Parent is the index in Page.Objects of the object whose loading
	// makes a browser fetch this one (a stylesheet's @import or image, a
	// script's inserted element): a dependency a round trip deeper. Zero,
	// the document, for what the document references, and for the
	// document itself.
	Parent int `json:"parent,omitempty"`
}

// Page is a web page: its document, then the objects the document
// references, in the order it references them.
type Page struct {
	// Objects are the document (Objects[0], KindHTML) and the objects it
	// references.
	Objects []Object `json:"objects"`
	// Dir is the directory a page was read from (Read): its
	// objects are its files, and its document is its index.html. Empty for
	// a synthetic page (Median, or read from a HAR file), whose document is Document's.
	Dir string `json:"dir,omitempty"`
	// Source says where the page came from, in a few words.
	Source string `json:"source"`
}

// Median is page-load's page: 50 objects, 704,512 body bytes (688 KiB).
// Its shape follows the HTTP Archive's median web page (a document of a
// few tens of KB, a few large scripts, stylesheets and images among many
// small objects) at about a third of the median's 2 MB and 70 requests, so
// that a page loads in about a second at 12 Mbit/s.
func Median() Page {
	page := []Object{{Kind: KindHTML, Bytes: 30 << 10}}
	add := func(kind string, kib ...int64) {
		for _, k := range kib {
			page = append(page, Object{Kind: kind, Bytes: k << 10})
		}
	}
	add(KindCSS, 40, 20, 8, 4)
	add(KindJS, 120, 80, 40, 20, 12, 8, 6, 4, 4, 2, 2, 2)
	add(KindImage, 60, 40, 30, 20, 15, 12, 10, 8, 6, 5, 4, 4, 3, 3, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1)
	add(KindFont, 25, 20)
	add(KindOther, 2, 1, 1, 1, 1, 1)
	return Page{Objects: page, Source: "page-load's page (the HTTP Archive median page's mix, a third of its size)"}
}

// Bytes is the page's body bytes, every object's.
func (p Page) Bytes() int64 {
	var n int64
	for _, o := range p.Objects {
		n += o.Bytes
	}
	return n
}

// DocumentPath is where the server serves a page's document; its objects
// are under it too (ObjectURL).
const DocumentPath = "/page/"

// ObjectURL is the path, from the server's root, of the page's i-th
// object: DocumentPath for the document, then a directory page's file,
// or a synthetic object's index and its kind's extension
// (/page/17.bmp), which the server answers with synthetic content.
func (p Page) ObjectURL(i int) string {
	o := p.Objects[i]
	switch {
	case i == 0:
		return DocumentPath
	case o.Path != "":
		return DocumentPath + escapePath(o.Path)
	}
	return DocumentPath + syntheticName(i, o.Kind)
}

// escapePath escapes each segment of a slash-separated path for a URL.
func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// Document is a synthetic page's document: HTML of exactly the document's
// size (or the least that references every object, when that is larger)
// that makes a browser fetch every other object once, each as its kind
// says, before the load event. The first object (the document) is not
// referenced.
func (p Page) Document() []byte {
	var head, body strings.Builder
	head.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>httpvs page</title>\n")
	// No favicon request: it would be an object the page does not have.
	head.WriteString("<link rel=\"icon\" href=\"data:,\">\n")
	for i, o := range p.Objects {
		if i == 0 || o.Parent != 0 {
			continue // the document, or fetched by the object it depends on
		}
		u := p.ObjectURL(i)
		switch o.Kind {
		case KindCSS:
			fmt.Fprintf(&head, "<link rel=\"stylesheet\" href=%q>\n", u)
		case KindJS:
			fmt.Fprintf(&head, "<script src=%q defer></script>\n", u)
		case KindFont:
			fmt.Fprintf(&head, "<link rel=\"preload\" as=\"font\" type=\"font/woff2\" href=%q>\n", u)
		case KindImage:
			fmt.Fprintf(&body, "<img src=%q alt=\"\" width=\"1\" height=\"1\">\n", u)
		default:
			fmt.Fprintf(&body, "<link rel=\"preload\" as=\"fetch\" href=%q>\n", u)
		}
	}
	head.WriteString("</head><body>\n")
	doc := head.String() + body.String()
	const end = "</body></html>\n"
	const open, closing = "<!--", "-->\n"
	if pad := p.Objects[0].Bytes - int64(len(doc)+len(end)+len(open)+len(closing)); pad > 0 {
		doc += open + strings.Repeat("p", int(pad)) + closing
	}
	return []byte(doc + end)
}

// MaxObjectBytes is the largest object a page may have: 1 GiB.
const maxObjectBytes = 1 << 30

// Validate says, in one line, what makes p unusable: no objects, a first
// object that is not a document, or a size below zero or above
// MaxObjectBytes.
func (p Page) Validate() error {
	if len(p.Objects) == 0 {
		return fmt.Errorf("page %s has no objects", p.Source)
	}
	if p.Objects[0].Kind != KindHTML {
		return fmt.Errorf("page %s: its first object is %s, not the HTML document", p.Source, p.Objects[0].Kind)
	}
	for i, o := range p.Objects {
		if o.Bytes < 0 || o.Bytes > maxObjectBytes {
			return fmt.Errorf("page %s: object %d has %d bytes (want 0 to %d)", p.Source, i, o.Bytes, maxObjectBytes)
		}
		if o.Parent != 0 && (o.Parent < 0 || o.Parent >= i || !canFetch(p.Objects[o.Parent].Kind, o.Kind)) {
			return fmt.Errorf("page %s: object %d (%s) depends on object %d, which cannot fetch it (want an earlier stylesheet or script)", p.Source, i, o.Kind, o.Parent)
		}
	}
	return nil
}

// canFetch says whether an object of kind parent can make a browser fetch
// one of kind child: a script anything (it inserts an element), a
// stylesheet another (@import) or an image (background-image), the
// document anything.
func canFetch(parent, child string) bool {
	switch parent {
	case KindHTML, KindJS:
		return true
	case KindCSS:
		return child == KindCSS || child == KindImage
	}
	return false
}

// Depth is how many objects the i-th waits for before a browser can ask
// for it: 0 for the document, 1 for what it references, 2 for what those
// fetch, and so on.
func (p Page) depth(i int) int {
	d := 0
	for n := 0; i > 0 && n < len(p.Objects); n++ { // bounded: parents come earlier
		i = p.Objects[i].Parent
		d++
	}
	return d
}
