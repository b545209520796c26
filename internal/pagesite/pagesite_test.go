package pagesite

import (
	"bytes"
	"encoding/binary"
	"regexp"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/webpage"
)

// TestSyntheticIndexFindsEveryObject: every object of page-load's page
// is found again by the name its URL gives it.
func TestSyntheticIndexFindsEveryObject(t *testing.T) {
	p := webpage.Median()
	for i := 1; i < len(p.Objects); i++ {
		name := strings.TrimPrefix(ObjectURL(p, i), DocumentPath)
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

// TestDocumentReferencesEveryObjectOnce checks that the document is
// exactly the document's size and names each other object once, by the
// URL the server answers, each as its kind asks.
func TestDocumentReferencesEveryObjectOnce(t *testing.T) {
	p := webpage.Median()
	doc := Document(p)
	if int64(len(doc)) != p.Objects[0].Bytes {
		t.Errorf("document is %d bytes, want %d", len(doc), p.Objects[0].Bytes)
	}
	refs := regexp.MustCompile(`(?:href|src)="(/page/[^"]+)"`).FindAllStringSubmatch(string(doc), -1)
	seen := map[string]int{}
	for _, r := range refs {
		seen[r[1]]++
	}
	for i := 1; i < len(p.Objects); i++ {
		u := ObjectURL(p, i)
		if seen[u] != 1 {
			t.Errorf("object %d (%s) referenced %d times, want 1", i, u, seen[u])
		}
	}
	if len(refs) != len(p.Objects)-1 {
		t.Errorf("%d references, want %d", len(refs), len(p.Objects)-1)
	}
	for _, tag := range []string{`rel="stylesheet"`, `<script src=`, `as="font"`, `<img src=`, `as="fetch"`, `rel="icon" href="data:,"`} {
		if !bytes.Contains(doc, []byte(tag)) {
			t.Errorf("document has no %s", tag)
		}
	}
}

// TestDocumentReferencesTopLevelObjects: the document references the
// objects that hang off it, and not those a stylesheet or a script
// fetches.
func TestDocumentReferencesTopLevelObjects(t *testing.T) {
	p := treePage()
	doc := string(Document(p))
	for i := 1; i < len(p.Objects); i++ {
		top := p.Objects[i].Parent == 0
		if in := strings.Contains(doc, ObjectURL(p, i)+`"`); in != top {
			t.Errorf("document references object %d: %v, want %v", i, in, top)
		}
	}
}

// TestObjectURLEscapesPaths: a directory page's file is served under its
// path, each segment escaped; a synthetic object under its index and
// its kind's extension.
func TestObjectURLEscapesPaths(t *testing.T) {
	p := webpage.Page{Objects: []webpage.Object{{Kind: webpage.KindHTML, Path: "index.html"}, {Kind: webpage.KindImage, Path: "img/a b.png"}, {Kind: webpage.KindCSS}}}
	for i, want := range []string{"/page/", "/page/img/a%20b.png", "/page/2.css"} {
		if got := ObjectURL(p, i); got != want {
			t.Errorf("ObjectURL(%d) = %q, want %q", i, got, want)
		}
	}
}

// FuzzDocument: the document of any valid synthetic page names every
// object that hangs off it.
func FuzzDocument(f *testing.F) {
	f.Add([]byte{1, 0, 2, 0, 4, 1}, int64(15000))
	f.Add([]byte{}, int64(0))
	f.Fuzz(func(t *testing.T, objs []byte, docBytes int64) {
		kinds := []string{webpage.KindCSS, webpage.KindJS, webpage.KindImage, webpage.KindFont, webpage.KindOther}
		p := webpage.Page{Objects: []webpage.Object{{Kind: webpage.KindHTML, Bytes: docBytes % (1 << 20)}}}
		for i := 0; i+1 < len(objs) && len(p.Objects) < 200; i += 2 {
			p.Objects = append(p.Objects, webpage.Object{Kind: kinds[int(objs[i])%len(kinds)], Bytes: 1, Parent: int(objs[i+1]) % len(p.Objects)})
		}
		if p.Validate() != nil {
			return
		}
		doc := string(Document(p))
		for i := 1; i < len(p.Objects); i++ {
			if p.Objects[i].Parent == 0 && !strings.Contains(doc, `"`+ObjectURL(p, i)+`"`) {
				t.Fatalf("document does not name object %d", i)
			}
		}
	})
}
