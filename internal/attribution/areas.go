package attribution

import "strings"

// Areas of code a function belongs to, by its package.
const (
	AreaHTTP2   = "HTTP/2 (net/http)"    // net/http's bundled or built-in HTTP/2
	AreaXHTTP2  = "HTTP/2 (x/net/http2)" // golang.org/x/net/http2
	AreaHTTP1   = "net/http"             // the rest of net/http: HTTP/1.1, the Transport, handlers
	AreaTLS     = "crypto/tls"           // TLS records, handshakes
	AreaCrypto  = "crypto"               // ciphers and hashes (AES-GCM, ChaCha20, SHA)
	AreaQUIC    = "quic-go"              // github.com/quic-go/quic-go, HTTP/3 included
	AreaGRPC    = "grpc-go"              // google.golang.org/grpc and protobuf
	AreaGC      = "runtime (GC, allocation)"
	AreaRuntime = "runtime (scheduler, other)"
	AreaSyscall = "syscalls and the netpoller" // syscall, internal/poll, x/sys, net
	AreaMemory  = "memory copies"              // runtime.memmove, memclr
	AreaOther   = "other"
)

// areas maps a function-name prefix to its area, longest prefixes first
// where they overlap.
var areas = []struct{ prefix, area string }{
	{"net/http.(*http2", AreaHTTP2},
	{"net/http.http2", AreaHTTP2},
	{"net/http/internal/http2", AreaHTTP2}, // Go 1.27: HTTP/2 moved into net/http
	{"net/http/internal/", AreaHTTP1},
	{"net/http.", AreaHTTP1},
	{"net/textproto.", AreaHTTP1},
	{"golang.org/x/net/http2", AreaXHTTP2},
	{"vendor/golang.org/x/net/http2", AreaHTTP2},
	{"vendor/golang.org/x/net/http/httpguts", AreaHTTP1},
	{"crypto/tls.", AreaTLS},
	{"crypto/", AreaCrypto},
	{"vendor/golang.org/x/crypto", AreaCrypto},
	{"golang.org/x/crypto", AreaCrypto},
	{"github.com/quic-go/", AreaQUIC},
	{"google.golang.org/", AreaGRPC},
	{"runtime.memmove", AreaMemory},
	{"runtime.memclr", AreaMemory},
	{"runtime.mallocgc", AreaGC},
	{"runtime.gc", AreaGC},
	{"runtime.scanobject", AreaGC},
	{"runtime.greyobject", AreaGC},
	{"runtime.findObject", AreaGC},
	{"runtime.markBits", AreaGC},
	{"runtime.heapBits", AreaGC},
	{"runtime.(*mspan)", AreaGC},
	{"runtime.(*mheap)", AreaGC},
	{"runtime.(*mcache)", AreaGC},
	{"runtime.(*gcWork)", AreaGC},
	{"runtime.(*gcBits)", AreaGC},
	{"runtime.sweepone", AreaGC},
	{"runtime.bgsweep", AreaGC},
	{"runtime.wbBuf", AreaGC},
	{"runtime.netpoll", AreaSyscall},
	{"runtime.epoll", AreaSyscall},
	{"runtime/internal/syscall", AreaSyscall},
	{"internal/runtime/syscall", AreaSyscall},
	{"runtime.", AreaRuntime},
	{"internal/runtime/", AreaRuntime},
	{"syscall.", AreaSyscall},
	{"internal/poll.", AreaSyscall},
	{"golang.org/x/sys/", AreaSyscall},
	{"net.", AreaSyscall},
}

// plumbing are the areas whose time is spent for whichever stack called
// them; stacks are the protocol stacks that call them.
var (
	plumbing = map[string]bool{AreaSyscall: true, AreaMemory: true, AreaGC: true, AreaRuntime: true}
	stacks   = map[string]bool{AreaHTTP2: true, AreaXHTTP2: true, AreaQUIC: true, AreaGRPC: true, AreaTLS: true, AreaCrypto: true}
)

// Area is the area of code the function named fn (as pprof names it)
// belongs to; AreaOther when none is known.
func Area(fn string) string {
	for _, a := range areas {
		if strings.HasPrefix(fn, a.prefix) {
			return a.area
		}
	}
	return AreaOther
}

// shorten drops module paths a reader knows by their last element
// (github.com/quic-go/quic-go.(*Conn).run -> quic-go.(*Conn).run).
func shorten(fn string) string {
	if i := strings.Index(fn, viaSep); i >= 0 {
		return shorten(fn[:i]) + viaSep + shorten(fn[i+len(viaSep):])
	}
	if rest, ok := strings.CutPrefix(fn, "internal/runtime/"); ok {
		return rest[strings.LastIndex(rest, "/")+1:] // syscall/linux.Syscall6 -> linux.Syscall6
	}
	for _, p := range []string{"github.com/quic-go/", "google.golang.org/", "golang.org/x/net/", "vendor/golang.org/x/net/", "github.com/httpvs/httpvs/"} {
		if strings.HasPrefix(fn, p) {
			return fn[len(p):]
		}
	}
	return fn
}
