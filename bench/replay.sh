#!/usr/bin/env bash
# The published record, replayed: every figure of the seeds (golang/go#47840
# with curl and Go's client, its fork's parallel downloads, gonuget's
# go test -bench, the gRPC ServeHTTP post, the gin post) and of two papers
# (Zhang et al. WWW 2024, link rates; Yu and Benson WWW 2021, congestion
# controllers), each in its own shape beside httpvs's figure, judged by
# rules stated before the results (versioned: the record carries their
# hash), each disagreement taken apart by settings varied one at a time;
# the published programs whose text is public (#47840's main.go, gonuget's
# benchmarks, the gRPC post's) rebuilt here and run beside httpvs's figures.
# Writes docs/replications.md and docs/measurements/replay-DATE.md, with
# the machine, versions, controller and load as measured in the run.
# Emulated links need root (or user namespaces) and /dev/net/tun. Prints
# its expected running time first (under 10 minutes on a quiet machine;
# --quick, for checking, writes its record to the temporary directory and
# leaves docs/replications.md alone).
#
#   bench/replay.sh [--quick]
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/httpvs" ./cmd/httpvs
go build -o "$tmp/replay" ./bench/replay
# The gRPC post's program is also run built against an older grpc-go
# (the oldest its generated code builds with), through a copy of go.mod;
# where the module proxy cannot serve it, that variation is left out.
old_grpc=()
mkdir "$tmp/grpcmod"
cp go.mod go.sum "$tmp/grpcmod/"
if GOFLAGS=-mod=mod go get -modfile="$tmp/grpcmod/go.mod" google.golang.org/grpc@v1.64.1 >"$tmp/grpcmod/log" 2>&1 &&
  GOFLAGS=-mod=mod go build -modfile="$tmp/grpcmod/go.mod" -o "$tmp/replay-grpc" ./bench/replay >>"$tmp/grpcmod/log" 2>&1; then
  old_grpc=(--old-grpc "$tmp/replay-grpc")
else
  echo "replay.sh: no build against the older grpc-go (its variation is left out):" >&2
  tail -3 "$tmp/grpcmod/log" >&2
fi
"$tmp/replay" --httpvs "$tmp/httpvs" --docs docs "${old_grpc[@]}" "$@"
