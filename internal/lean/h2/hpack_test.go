package h2

import (
	"fmt"
	"net/url"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/net/http2/hpack"

	"github.com/httpvs/httpvs/internal/lean/internal/target"
	"github.com/httpvs/httpvs/transport"
)

// serverDecoder decodes header blocks as a server's decoder would, one
// connection's blocks in order.
type serverDecoder struct {
	dec    *hpack.Decoder
	fields []string
}

func newServerDecoder() *serverDecoder {
	d := &serverDecoder{}
	d.dec = hpack.NewDecoder(defaultTableSize, func(f hpack.HeaderField) { d.fields = append(d.fields, f.Name+": "+f.Value) })
	return d
}

func (d *serverDecoder) decode(t *testing.T, block []byte) []string {
	t.Helper()
	d.fields = nil
	if _, err := d.dec.Write(block); err != nil {
		t.Fatalf("decoding % x: %v", block, err)
	}
	if err := d.dec.Close(); err != nil {
		t.Fatalf("decoding % x: %v", block, err)
	}
	return d.fields
}

// newTestClient is NewClient of opts and req's target.
func newTestClient(opts transport.ClientOptions, req target.Request) (*Client, error) {
	t, err := target.New(opts, req)
	if err != nil {
		return nil, err
	}
	return NewClient(t, opts.Config), nil
}

// TestRequestBlocks: a connection's blocks, first and then next again and
// again, give the server the request's fields every time, with next a
// few bytes of indexes; fields too big to stay in the server's table get
// plain blocks only.
func TestRequestBlocks(t *testing.T) {
	tests := []struct {
		name    string
		headers int // extra headers of 20-byte values
		indexed bool
	}{
		{"plain GET", 0, true},
		{"a few headers", 3, true},
		{"more than the table holds", 100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, _ := url.Parse("http://127.0.0.1:8080/small?x=1")
			req := target.Request{URL: u, Header: map[string][]string{}}
			for i := range tt.headers {
				req.Header.Set(fmt.Sprintf("X-H%d", i), strings.Repeat("v", 20))
			}
			c, err := newTestClient(transport.ClientOptions{Protocol: transport.H2C}, req)
			if err != nil {
				t.Fatal(err)
			}
			p := c
			if (p.first != nil) != tt.indexed {
				t.Fatalf("indexed blocks %v, want %v", p.first != nil, tt.indexed)
			}
			want := newServerDecoder().decode(t, p.plain)
			if len(want) != 5+tt.headers || want[0] != ":method: GET" || want[3] != ":path: /small?x=1" {
				t.Fatalf("plain block gives %q", want)
			}
			hc := &h2Conn{p: p}
			d := newServerDecoder()
			for i := range 5 {
				block := hc.takeBlock()
				if got := d.decode(t, block); !reflect.DeepEqual(got, want) {
					t.Fatalf("block %d gives %q, want %q", i, got, want)
				}
				if i > 0 && tt.indexed && len(block) > 5+tt.headers {
					t.Fatalf("block %d is %d bytes, want one index a field", i, len(block))
				}
			}
		})
	}
}

// TestHeaderTableShrunk: when the server's SETTINGS shrink its table
// after the first block, the next block says so with a table size update
// the server's decoder accepts, and blocks are plain from then on.
func TestHeaderTableShrunk(t *testing.T) {
	for _, size := range []uint32{0, 100, 4095} {
		u, _ := url.Parse("https://example.com/")
		c, err := newTestClient(transport.ClientOptions{Protocol: transport.H2}, target.Request{URL: u})
		if err != nil {
			t.Fatal(err)
		}
		hc := &h2Conn{p: c}
		d := newServerDecoder()
		want := d.decode(t, hc.takeBlock())
		hc.tableSize(size)
		hc.tableSize(size) // repeated SETTINGS change nothing more
		d.dec.SetAllowedMaxDynamicTableSize(size)
		for i := range 3 {
			block := hc.takeBlock()
			if got := d.decode(t, block); !reflect.DeepEqual(got, want) {
				t.Fatalf("size %d, block %d after: %q, want %q", size, i, got, want)
			}
			if hpackStateless(block) != (i > 0) {
				t.Fatalf("size %d, block %d after: % x: only the first holds the size update", size, i, block)
			}
		}
	}
}
