// Package bookstore is the gRPC ServeHTTP post's gRPC service, GetBook, implemented once
// and bound three ways: grpc-go's own server and HTTP/2 transport
// (Native), grpc.Server.ServeHTTP behind net/http's HTTP/2 on the h2c and
// h2 ports (ServeHTTP), and an HTTP/1.1 JSON endpoint calling the same
// implementation, as gRPC transcoding does (JSON). Client wraps the
// matching clients, so benchmarks and the run matrix call every binding the
// same way.
package bookstore

import (
	"context"
	"strings"
	"unicode/utf8"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/httpvs/httpvs/internal/bookstore/bookstorepb"
)

// Service implements bookstorepb.BookstoreServer. Its books are made up
// from their names, so every binding returns the same bytes.
type Service struct {
	bookstorepb.UnimplementedBookstoreServer
}

// GetBook returns the book called req.Name (shelves/{shelf}/books/{book});
// another shape of name is InvalidArgument.
func (Service) GetBook(_ context.Context, req *bookstorepb.GetBookRequest) (*bookstorepb.Book, error) {
	if !utf8.ValidString(req.GetName()) {
		// A proto3 string must be UTF-8: the book could not be encoded.
		return nil, status.Errorf(codes.InvalidArgument, "name %q is not valid UTF-8", req.GetName())
	}
	shelf, book, ok := parseName(req.GetName())
	if !ok {
		return nil, status.Errorf(codes.InvalidArgument, "name %q: want shelves/{shelf}/books/{book}", req.GetName())
	}
	return &bookstorepb.Book{
		Name:   req.GetName(),
		Author: "Author of book " + book + " on shelf " + shelf,
		Title:  "Book " + book,
		Read:   len(book)%2 == 0,
	}, nil
}

// parseName splits shelves/{shelf}/books/{book}.
func parseName(name string) (shelf, book string, ok bool) {
	parts := strings.Split(name, "/")
	if len(parts) != 4 || parts[0] != "shelves" || parts[2] != "books" || parts[1] == "" || parts[3] == "" {
		return "", "", false
	}
	return parts[1], parts[3], true
}
