// Package webpage is a web page as a list of objects: page-load's page
// (Median, the HTTP Archive's median page at a third of its size), a
// user's directory of files or a HAR file's objects (Read). The payload
// server serves it; the page-load model and a real browser load it. It
// does no I/O beyond reading the user's files.
package webpage

import (
	"fmt"
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
	// a synthetic page (Median, or read from a HAR file), whose document the server makes.
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
		if p.Dir != "" && o.Path == "" {
			return fmt.Errorf("page %s: object %d has no path in %s (want a file's path under the directory, as Read gives)", p.Source, i, p.Dir)
		}
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
