package webpage

import (
	"strings"
	"testing"
)

// treeHAR is a page as Chromium's DevTools save it, with _initiator: the
// document references a stylesheet and a script; the stylesheet imports
// another and uses an image and a font; the script fetches JSON and
// inserts an image; one entry names an initiator the HAR lacks, and one
// an initiator recorded after it.
const treeHAR = `{"log":{"entries":[
 {"request":{"url":"https://ex.test/"},"response":{"status":200,"content":{"size":10000,"mimeType":"text/html"}}},
 {"request":{"url":"https://ex.test/a.css"},"_initiator":{"type":"parser","url":"https://ex.test/","lineNumber":3},"response":{"status":200,"content":{"size":3000,"mimeType":"text/css"}}},
 {"request":{"url":"https://ex.test/app.js?v=2"},"_initiator":{"type":"parser","url":"https://ex.test/"},"response":{"status":200,"content":{"size":50000,"mimeType":"application/javascript"}}},
 {"request":{"url":"https://ex.test/b.css"},"_initiator":{"type":"parser","url":"https://ex.test/a.css"},"response":{"status":200,"content":{"size":2000,"mimeType":"text/css"}}},
 {"request":{"url":"https://ex.test/bg.png"},"_initiator":{"type":"parser","url":"https://ex.test/a.css"},"response":{"status":200,"content":{"size":7000,"mimeType":"image/png"}}},
 {"request":{"url":"https://ex.test/f.woff2"},"_initiator":{"type":"parser","url":"https://ex.test/a.css"},"response":{"status":200,"content":{"size":20000,"mimeType":"font/woff2"}}},
 {"request":{"url":"https://ex.test/api/items"},"_initiator":{"type":"script","stack":{"callFrames":[{"url":"https://ex.test/app.js?v=2","lineNumber":10}]}},"response":{"status":200,"content":{"size":800,"mimeType":"application/json"}}},
 {"request":{"url":"https://ex.test/hero.jpg"},"_initiator":{"type":"script","stack":{"callFrames":[{"url":"https://ex.test/app.js"}]}},"response":{"status":200,"content":{"size":40000,"mimeType":"image/jpeg"}}},
 {"request":{"url":"https://ex.test/x.js"},"_initiator":{"type":"script","url":"https://other.test/gone.js"},"response":{"status":200,"content":{"size":100,"mimeType":"text/javascript"}}},
 {"request":{"url":"https://ex.test/early.png"},"_initiator":{"type":"parser","url":"https://ex.test/late.css"},"response":{"status":200,"content":{"size":100,"mimeType":"image/png"}}},
 {"request":{"url":"https://ex.test/late.css"},"response":{"status":200,"content":{"size":100,"mimeType":"text/css"}}}
]}}`

// TestHARDependencyTree: each object hangs off the object that initiated
// it, where that one can fetch it (a stylesheet imports stylesheets and
// shows images, a script anything) and came first; otherwise off the
// document.
func TestHARDependencyTree(t *testing.T) {
	p, err := parseHAR([]byte(treeHAR), "tree.har")
	if err != nil {
		t.Fatal(err)
	}
	//            doc a.css app.js b.css bg.png font json hero x.js early late
	parents := []int{0, 0, 0, 1, 1, 0, 2, 2, 0, 0, 0}
	depths := []int{0, 1, 1, 2, 2, 1, 2, 2, 1, 1, 1}
	if len(p.Objects) != len(parents) {
		t.Fatalf("%d objects, want %d: %+v", len(p.Objects), len(parents), p.Objects)
	}
	for i := range parents {
		if p.Objects[i].Parent != parents[i] || p.depth(i) != depths[i] {
			t.Errorf("object %d (%s): parent %d depth %d, want %d and %d", i, p.Objects[i].Kind, p.Objects[i].Parent, p.depth(i), parents[i], depths[i])
		}
	}
	if !strings.Contains(p.Source, "4 fetched by another than the document") {
		t.Errorf("source %q", p.Source)
	}
}

// TestValidateParents: a dependency on a later object, on itself, or on
// an object that cannot fetch it is refused in one line.
func TestValidateParents(t *testing.T) {
	for _, objs := range [][]Object{
		{{Kind: KindHTML}, {Kind: KindImage, Parent: 2}, {Kind: KindJS}},
		{{Kind: KindHTML}, {Kind: KindJS, Parent: 1}},
		{{Kind: KindHTML}, {Kind: KindImage}, {Kind: KindCSS, Parent: 1}},
		{{Kind: KindHTML}, {Kind: KindCSS}, {Kind: KindFont, Parent: 1}},
	} {
		p := Page{Objects: objs, Source: "test"}
		if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "cannot fetch it") {
			t.Errorf("%+v: %v", objs, err)
		}
	}
}

// TestHARTreeFromText: a HAR without initiators (Firefox's) that kept
// the bodies' text: an object hangs off the first earlier stylesheet or
// script that names it (by URL or by path), unless the document names it
// too; one that a stylesheet names but cannot fetch (a font) hangs off
// the document.
func TestHARTreeFromText(t *testing.T) {
	const har = `{"log":{"entries":[
 {"request":{"url":"https://ex.test/"},"response":{"status":200,"content":{"size":5000,"mimeType":"text/html","text":"<link rel=stylesheet href=\"/a.css\"><script src=\"https://ex.test/app.js\"></script><img src=\"/logo.png\">"}}},
 {"request":{"url":"https://ex.test/a.css"},"response":{"status":200,"content":{"size":3000,"mimeType":"text/css","text":"@import \"/b.css\"; body{background:url(/bg.png)} @font-face{src:url(/f.woff2)}"}}},
 {"request":{"url":"https://ex.test/app.js"},"response":{"status":200,"content":{"size":9000,"mimeType":"text/javascript","text":"fetch('https://ex.test/api/items'); img('/logo.png')"}}},
 {"request":{"url":"https://ex.test/b.css"},"response":{"status":200,"content":{"size":1000,"mimeType":"text/css"}}},
 {"request":{"url":"https://ex.test/bg.png"},"response":{"status":200,"content":{"size":4000,"mimeType":"image/png","text":"iVBOR","encoding":"base64"}}},
 {"request":{"url":"https://ex.test/f.woff2"},"response":{"status":200,"content":{"size":8000,"mimeType":"font/woff2"}}},
 {"request":{"url":"https://ex.test/api/items?page=1"},"response":{"status":200,"content":{"size":700,"mimeType":"application/json"}}},
 {"request":{"url":"https://ex.test/logo.png"},"response":{"status":200,"content":{"size":600,"mimeType":"image/png"}}}
]}}`
	p, err := parseHAR([]byte(har), "text.har")
	if err != nil {
		t.Fatal(err)
	}
	//            doc a.css app.js b.css bg font items logo
	parents := []int{0, 0, 0, 1, 1, 0, 2, 0}
	for i, want := range parents {
		if p.Objects[i].Parent != want {
			t.Errorf("object %d (%s): parent %d, want %d", i, p.Objects[i].Kind, p.Objects[i].Parent, want)
		}
	}
}
