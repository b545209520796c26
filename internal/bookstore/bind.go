package bookstore

import (
	"net/http"
	"strconv"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/httpvs/httpvs/internal/bookstore/bookstorepb"
)

// JSONPattern is the JSON binding's route, for http.ServeMux: GetBook
// transcoded as GET /v1/{name=shelves/*/books/*}.
const JSONPattern = "GET /v1/shelves/{shelf}/books/{book}"

// NewGRPCServer returns a grpc.Server with the Bookstore service: serve it
// on a listener (the Native binding) or through its ServeHTTP (Mount).
func NewGRPCServer(opts ...grpc.ServerOption) *grpc.Server {
	g := grpc.NewServer(opts...)
	bookstorepb.RegisterBookstoreServer(g, Service{})
	return g
}

// IsGRPC reports whether r is a gRPC request: HTTP/2 with a content type
// of application/grpc (or application/grpc+proto, ...).
func IsGRPC(r *http.Request) bool {
	return r.ProtoMajor == 2 && strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc")
}

// Mount returns a handler that gives gRPC requests to g.ServeHTTP (the
// ServeHTTP binding) and everything else to next.
func Mount(g *grpc.Server, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if IsGRPC(r) {
			g.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ServeJSON is the JSON binding: it calls Service.GetBook with the name
// from the path (registered at JSONPattern) and writes the book as
// protojson, as gRPC-JSON transcoding would.
func ServeJSON(w http.ResponseWriter, r *http.Request) {
	req := &bookstorepb.GetBookRequest{Name: "shelves/" + r.PathValue("shelf") + "/books/" + r.PathValue("book")}
	book, err := Service{}.GetBook(r.Context(), req)
	if err != nil {
		code := http.StatusInternalServerError
		if status.Code(err) == codes.InvalidArgument {
			code = http.StatusBadRequest
		}
		http.Error(w, status.Convert(err).Message(), code)
		return
	}
	body, err := protojson.Marshal(book)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}
