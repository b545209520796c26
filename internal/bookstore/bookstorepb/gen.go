// Package bookstorepb holds the generated protobuf and gRPC code of
// bookstore.proto. Regenerate with go generate (needs protoc,
// protoc-gen-go and protoc-gen-go-grpc on PATH).
package bookstorepb

//go:generate protoc --go_out=. --go_opt=paths=source_relative --go-grpc_out=. --go-grpc_opt=paths=source_relative bookstore.proto
