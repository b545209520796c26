#!/usr/bin/env bash
# Hostile clients against httpvs serve: the server's hostile-client tests
# (server/hostile*_test.go: HTTP/2 rapid reset, CONTINUATION, SETTINGS and
# WINDOW_UPDATE floods, oversized headers, slowloris, preface-only, 64 MB
# echoes over h1, h2c, h2 and h3), without the race detector. Each line
# gives the server's peak RSS and the well-behaved client's rate and
# latency beside the attack and alone: an open loop at 100 requests a
# second (as wrk2 paces), held to MIN_RATIO of its rate alone (the tests
# hold it to 0.8 in CI's measured step too; this records the figures).
#
#   bench/hostile.sh [MIN_RATIO]     default 0.8
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to hostile "$@"
MIN=${1:-0.8}
echo "go test -tags measured -count=1 -run TestHostile -v ./server, with HTTPVS_HOSTILE_MIN_RATIO=$MIN"
echo
status=0
out=$(mktemp)
trap 'rm -f "$out"' EXIT
HTTPVS_HOSTILE_MIN_RATIO=$MIN go test -tags measured -count=1 -run 'TestHostile' -v ./server >"$out" 2>&1 || status=$?
grep -E '^(--- |    hostile)' "$out" | sed 's/^    //' || true
echo
if [ "$status" -eq 0 ]; then
	echo "every attack: server held, attacker dropped or its bounded attack ended, good client at ${MIN}x or more"
else
	echo "some attack missed a target (the FAIL lines above say which)"
fi
exit "$status"
