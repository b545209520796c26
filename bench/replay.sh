#!/usr/bin/env bash
# The published record, replayed: every figure of the seeds (golang/go#47840
# with curl and Go's client, its fork's parallel downloads, gonuget's
# go test -bench, the gRPC ServeHTTP post, the gin post) and of two papers
# (Zhang et al. WWW 2024, link rates; Yu and Benson WWW 2021, congestion
# controllers), each in its own shape beside httpvs's figure, judged by
# rules stated before the results (versioned: the record carries their
# hash), each disagreement taken apart by settings varied one at a time.
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
"$tmp/replay" --httpvs "$tmp/httpvs" --docs docs "$@"
