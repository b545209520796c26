package pagesite

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/webpage"
)

// TestSyntheticIndexFindsEveryObject: every object of page-load's page
// is found again by the name its URL gives it.
func TestSyntheticIndexFindsEveryObject(t *testing.T) {
	p := webpage.Median()
	for i := 1; i < len(p.Objects); i++ {
		name := strings.TrimPrefix(p.ObjectURL(i), webpage.DocumentPath)
		if j, ok := SyntheticIndex(p, name); !ok || j != i {
			t.Errorf("SyntheticIndex(%q) = %d, %v; want %d", name, j, ok, i)
		}
	}
}

func TestSyntheticIndexRefuses(t *testing.T) {
	p := webpage.Median()
	for _, name := range []string{"", "0.html", "50.bin", "1.js", "01.css", "x.css", "1", "-1.css", "1.css.css"} {
		if i, ok := SyntheticIndex(p, name); ok {
			t.Errorf("SyntheticIndex(%q) = %d, true; want false", name, i)
		}
	}
}

func TestSyntheticContent(t *testing.T) {
	for _, kind := range []string{webpage.KindCSS, webpage.KindJS, webpage.KindImage, webpage.KindFont, webpage.KindOther} {
		for _, size := range []int64{0, 3, 57, 58, 1024, 100 << 10} {
			c := Synthetic(kind, size)
			var b bytes.Buffer
			n, err := c.WriteTo(&b)
			if err != nil || n != size || int64(b.Len()) != size {
				t.Fatalf("%s %d: wrote %d (%d buffered), %v", kind, size, n, b.Len(), err)
			}
			if kind == webpage.KindImage && size >= 58 {
				bmp := b.Bytes()
				if string(bmp[:2]) != "BM" || int64(binary.LittleEndian.Uint32(bmp[2:])) != size || int64(binary.LittleEndian.Uint32(bmp[10:])) != size-4 {
					t.Errorf("image %d: BMP header % x", size, bmp[:14])
				}
			}
			if kind == webpage.KindJS && size >= 5 && (!bytes.HasPrefix(b.Bytes(), []byte("/*")) || !bytes.HasSuffix(b.Bytes(), []byte("*/\n"))) {
				t.Errorf("script %d is not one comment", size)
			}
		}
	}
}

// treePage is webpage's HAR test page as Read reads it from a HAR file: the document
// references a stylesheet and a script; the stylesheet imports another
// and uses an image and a font; the script fetches JSON and inserts an
// image.
func treePage() webpage.Page {
	//                     doc a.css app.js b.css bg.png font json hero x.js early late
	parents := []int{0, 0, 0, 1, 1, 0, 2, 2, 0, 0, 0}
	kinds := []string{webpage.KindHTML, webpage.KindCSS, webpage.KindJS, webpage.KindCSS, webpage.KindImage, webpage.KindFont, webpage.KindOther, webpage.KindImage, webpage.KindJS, webpage.KindImage, webpage.KindCSS}
	sizes := []int64{10000, 3000, 50000, 2000, 7000, 20000, 800, 40000, 100, 100, 100}
	var p webpage.Page
	for i := range parents {
		p.Objects = append(p.Objects, webpage.Object{Kind: kinds[i], Bytes: sizes[i], Parent: parents[i]})
	}
	return p
}

// TestObjectContentFetchesDependents: a stylesheet's body imports its
// stylesheets and shows its images, a script's inserts an element for
// each of its objects, each at the start of a body of the object's size
// (or the least that holds them); an object without dependents is
// Synthetic's.
func TestObjectContentFetchesDependents(t *testing.T) {
	p := treePage()
	body := func(i int) string {
		var b strings.Builder
		c := ObjectContent(p, i)
		if n, err := c.WriteTo(&b); err != nil || n != c.Size || c.Size != p.Objects[i].Bytes {
			t.Fatalf("object %d: wrote %d of %d bytes (object %d): %v", i, n, c.Size, p.Objects[i].Bytes, err)
		}
		return b.String()
	}
	css, js := body(1), body(2)
	if !strings.HasPrefix(css, `@import url("/page/3.css");`+"\n"+`html{background-image:url("/page/4.bmp")}`) {
		t.Errorf("stylesheet starts %q", css[:80])
	}
	for _, want := range []string{`e.as='fetch';e.href="/page/6.bin"`, `createElement('img');e.alt='';e.width=1;e.height=1;e.src="/page/7.bmp";d.body.appendChild(e)`} {
		if !strings.Contains(js[:400], want) {
			t.Errorf("script lacks %q: %q", want, js[:400])
		}
	}
	if c := ObjectContent(p, 4); c.Prefix == nil || string(c.Prefix[:2]) != "BM" {
		t.Errorf("an image without dependents: %+v", c.Prefix[:2])
	}
	small := webpage.Page{Objects: []webpage.Object{{Kind: webpage.KindHTML, Bytes: 10}, {Kind: webpage.KindJS, Bytes: 4}, {Kind: webpage.KindImage, Bytes: 100, Parent: 1}}}
	if c := ObjectContent(small, 1); c.Size <= 4 || !strings.Contains(string(c.Prefix), "/page/2.bmp") {
		t.Errorf("a script too small for its references: %d bytes, %q", c.Size, c.Prefix)
	}
}
