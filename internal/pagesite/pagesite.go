// Package pagesite is how the payload server serves a webpage.Page: where
// (DocumentPath, ObjectURL), the synthetic document that makes a browser
// fetch every object, each object's body, valid for its kind so that a
// browser takes in every byte of it, and for a stylesheet or a script the
// references that make a browser fetch the objects that depend on it.
package pagesite

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/httpvs/httpvs/webpage"
)

// Content is a synthetic object's body, valid for its kind so that a
// browser takes in every byte of it (an image that does not decode is
// cancelled after its first packets): Prefix, then Fill up to Size bytes
// in all, then Suffix.
type Content struct {
	Type   string // its Content-Type
	Size   int64  // body bytes
	Prefix []byte
	Fill   byte
	Suffix []byte
}

// bmpHeader is the 54-byte header of a 1x1, 24-bit BMP whose file is size
// bytes, its one pixel (4 bytes, the row padded) at the end: the gap
// between them fills the size.
func bmpHeader(size int64) []byte {
	h := make([]byte, 54)
	copy(h, "BM")
	binary.LittleEndian.PutUint32(h[2:], uint32(size))
	binary.LittleEndian.PutUint32(h[10:], uint32(size-4)) // where the pixels start
	binary.LittleEndian.PutUint32(h[14:], 40)             // BITMAPINFOHEADER
	binary.LittleEndian.PutUint32(h[18:], 1)              // width
	binary.LittleEndian.PutUint32(h[22:], 1)              // height
	binary.LittleEndian.PutUint16(h[26:], 1)              // planes
	binary.LittleEndian.PutUint16(h[28:], 24)             // bits per pixel
	binary.LittleEndian.PutUint32(h[34:], 4)              // pixel bytes
	return h
}

// Synthetic is a synthetic object's body of kind and size: a stylesheet
// or a script that is one comment, a BMP image, or bytes of a font or
// other kind (a font that is preloaded, not used, is never decoded). A
// body too small for its kind's frame is Fill alone.
func Synthetic(kind string, size int64) Content {
	c := Content{Type: "application/octet-stream", Size: size, Fill: 'a'}
	switch kind {
	case webpage.KindCSS:
		c.Type, c.Prefix, c.Suffix = "text/css", []byte("/*"), []byte("*/\n")
	case webpage.KindJS:
		c.Type, c.Prefix, c.Suffix = "text/javascript", []byte("/*"), []byte("*/\n")
	case webpage.KindImage:
		c.Type, c.Prefix, c.Fill, c.Suffix = "image/bmp", bmpHeader(size), 0, []byte{0, 0, 0xff, 0}
	case webpage.KindFont:
		c.Type = "font/woff2"
	}
	if int64(len(c.Prefix)+len(c.Suffix)) > size {
		c.Prefix, c.Suffix = nil, nil
	}
	return c
}

// WriteTo writes the body to w.
func (c Content) WriteTo(w io.Writer) (int64, error) {
	fill := int64(c.Size) - int64(len(c.Prefix)+len(c.Suffix))
	chunk := bytes.Repeat([]byte{c.Fill}, int(min(fill, 32<<10)))
	n, err := w.Write(c.Prefix)
	total := int64(n)
	for err == nil && fill > 0 {
		n, err = w.Write(chunk[:min(fill, int64(len(chunk)))])
		total += int64(n)
		fill -= int64(n)
	}
	if err == nil {
		n, err = w.Write(c.Suffix)
		total += int64(n)
	}
	return total, err
}

// SyntheticIndex is the index of the synthetic page's object served as
// name (what ObjectURL gave, less DocumentPath), and whether
// name is one.
func SyntheticIndex(p webpage.Page, name string) (int, bool) {
	num, _, ok := strings.Cut(name, ".")
	i, err := strconv.Atoi(num)
	if !ok || err != nil || i < 1 || i >= len(p.Objects) || p.Objects[i].Path != "" || strconv.Itoa(i) != num {
		return 0, false
	}
	return i, ObjectURL(p, i) == DocumentPath+name
}

// ObjectContent is the synthetic page's i-th object's body: Synthetic's,
// and for a stylesheet or a script the objects that depend on it
// (webpage.Object.Parent) referenced at its start, so that a browser fetches them
// only once it has this one: a stylesheet @imports stylesheets and sets
// images as the page's backgrounds, a script inserts an element for each.
// The body keeps the object's size, or the least that references them.
func ObjectContent(p webpage.Page, i int) Content {
	o := p.Objects[i]
	c := Synthetic(o.Kind, o.Bytes)
	kids := children(p, i)
	if len(kids) == 0 || (o.Kind != webpage.KindCSS && o.Kind != webpage.KindJS) {
		return c
	}
	var refs strings.Builder
	if o.Kind == webpage.KindCSS {
		var images []string
		for _, k := range kids {
			if p.Objects[k].Kind == webpage.KindCSS {
				fmt.Fprintf(&refs, "@import url(%q);\n", ObjectURL(p, k))
			} else {
				images = append(images, fmt.Sprintf("url(%q)", ObjectURL(p, k)))
			}
		}
		if len(images) > 0 {
			fmt.Fprintf(&refs, "html{background-image:%s}\n", strings.Join(images, ","))
		}
	} else {
		refs.WriteString("(function(){var d=document,e;\n")
		for _, k := range kids {
			refs.WriteString(insertElement(p.Objects[k].Kind, ObjectURL(p, k)))
		}
		refs.WriteString("})();\n")
	}
	c.Prefix = append([]byte(refs.String()), "/*"...)
	c.Suffix = []byte("*/\n")
	c.Size = max(c.Size, int64(len(c.Prefix)+len(c.Suffix)))
	return c
}

// children are the indexes of the objects p's i-th makes a browser
// fetch, in page order.
func children(p webpage.Page, i int) []int {
	var out []int
	for j := i + 1; j < len(p.Objects); j++ {
		if p.Objects[j].Parent == i {
			out = append(out, j)
		}
	}
	return out
}

// insertElement is a script's statement that makes a browser fetch u as
// kind does in a document (Document): an element appended to it,
// which delays the load event until it has loaded.
func insertElement(kind, u string) string {
	switch kind {
	case webpage.KindCSS:
		return fmt.Sprintf("e=d.createElement('link');e.rel='stylesheet';e.href=%q;d.head.appendChild(e);\n", u)
	case webpage.KindJS:
		return fmt.Sprintf("e=d.createElement('script');e.src=%q;d.head.appendChild(e);\n", u)
	case webpage.KindImage:
		return fmt.Sprintf("e=d.createElement('img');e.alt='';e.width=1;e.height=1;e.src=%q;d.body.appendChild(e);\n", u)
	case webpage.KindFont:
		return fmt.Sprintf("e=d.createElement('link');e.rel='preload';e.as='font';e.type='font/woff2';e.href=%q;d.head.appendChild(e);\n", u)
	}
	return fmt.Sprintf("e=d.createElement('link');e.rel='preload';e.as='fetch';e.href=%q;d.head.appendChild(e);\n", u)
}
