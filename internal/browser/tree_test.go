package browser

import (
	"context"
	"crypto/x509"
	"strings"
	"testing"

	"github.com/httpvs/httpvs/internal/pagesite"
	"github.com/httpvs/httpvs/server"
	"github.com/httpvs/httpvs/transport"
	"github.com/httpvs/httpvs/webpage"
)

// treePage is a page with dependencies, as a HAR's initiators give them:
// a stylesheet that imports another and shows an image, a script that
// fetches data, inserts an image and a further script, which inserts a
// stylesheet of its own.
var treePage = webpage.Page{Source: "tree", Objects: []webpage.Object{
	{Kind: webpage.KindHTML, Bytes: 10000},
	{Kind: webpage.KindCSS, Bytes: 3000},
	{Kind: webpage.KindJS, Bytes: 20000},
	{Kind: webpage.KindCSS, Bytes: 2000, Parent: 1},
	{Kind: webpage.KindImage, Bytes: 7000, Parent: 1},
	{Kind: webpage.KindOther, Bytes: 800, Parent: 2},
	{Kind: webpage.KindImage, Bytes: 40000, Parent: 2},
	{Kind: webpage.KindJS, Bytes: 500, Parent: 2},
	{Kind: webpage.KindCSS, Bytes: 600, Parent: 7},
	{Kind: webpage.KindFont, Bytes: 9000},
}}

// TestLoadPageFollowsItsTree: Chromium loading a page with dependencies
// from httpvs's server fetches every object once, each dependent after
// the object it depends on has finished (the document references only
// the others), over h1 and h2.
func TestLoadPageFollowsItsTree(t *testing.T) {
	requireChromium(t)
	tmp := ownTemp(t)
	page := treePage
	srv, err := server.Start(server.Config{Transport: server.Loopback(), Options: server.Options{Page: &page}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cert, err := x509.ParseCertificate(srv.Transport.Cert().Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []transport.Protocol{transport.H1, transport.H2} {
		t.Run(p.String(), func(t *testing.T) {
			load, err := LoadPage(context.Background(), srv.Transport.URL(p)+pagesite.DocumentPath, Options{Protocol: p, TrustSPKI: []string{SPKIHash(cert)}})
			if err != nil {
				t.Fatal(err)
			}
			if len(load.Objects) != len(page.Objects) || load.Failed() != 0 {
				t.Fatalf("%d objects, %d failed; want %d loaded: %+v", len(load.Objects), load.Failed(), len(page.Objects), load.Objects)
			}
			at := map[string]int{} // object URL -> position in the browser's order
			for i, o := range load.Objects {
				at[strings.TrimPrefix(o.URL, srv.Transport.URL(p))] = i
			}
			for i, o := range page.Objects[1:] {
				i++
				child, ok := at[pagesite.ObjectURL(page, i)]
				parent := at[pagesite.ObjectURL(page, o.Parent)]
				if !ok || child <= parent || load.Objects[child].Finished <= load.Objects[parent].Finished {
					t.Errorf("object %d (%s): asked %d-th, finished %v; its parent %d %d-th, finished %v", i, o.Kind, child, load.Objects[child].Finished, o.Parent, parent, load.Objects[parent].Finished)
				}
			}
			leftovers(t, tmp)
		})
	}
}
