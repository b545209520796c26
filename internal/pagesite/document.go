package pagesite

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/webpage"
)

// DocumentPath is where the server serves a page's document; its objects
// are under it too (ObjectURL).
const DocumentPath = "/page/"

// ObjectURL is the path, from the server's root, of the page's i-th
// object: DocumentPath for the document, then a directory page's file,
// or a synthetic object's index and its kind's extension
// (/page/17.bmp), which the server answers with synthetic content.
func ObjectURL(p webpage.Page, i int) string {
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
func Document(p webpage.Page) []byte {
	var head, body strings.Builder
	head.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>httpvs page</title>\n")
	// No favicon request: it would be an object the page does not have.
	head.WriteString("<link rel=\"icon\" href=\"data:,\">\n")
	for i, o := range p.Objects {
		if i == 0 || o.Parent != 0 {
			continue // the document, or fetched by the object it depends on
		}
		u := ObjectURL(p, i)
		switch o.Kind {
		case webpage.KindCSS:
			fmt.Fprintf(&head, "<link rel=\"stylesheet\" href=%q>\n", u)
		case webpage.KindJS:
			fmt.Fprintf(&head, "<script src=%q defer></script>\n", u)
		case webpage.KindFont:
			fmt.Fprintf(&head, "<link rel=\"preload\" as=\"font\" type=\"font/woff2\" href=%q>\n", u)
		case webpage.KindImage:
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

// extensions are the synthetic objects' file extensions, by kind.
var extensions = map[string]string{webpage.KindHTML: ".html", webpage.KindCSS: ".css", webpage.KindJS: ".js", webpage.KindImage: ".bmp", webpage.KindFont: ".woff2", webpage.KindOther: ".bin"}

// syntheticName is the name a synthetic page's i-th object is served
// under DocumentPath: its index and its kind's extension.
func syntheticName(i int, kind string) string {
	ext, ok := extensions[kind]
	if !ok {
		ext = ".bin"
	}
	return strconv.Itoa(i) + ext
}
