#!/usr/bin/env bash
# Single-stream download throughput: curl vs httpvs get, side by side, from
# one `httpvs serve` on loopback. Interleaved rounds; prints each median and
# the ratio httpvs/curl per transport (the aim: >= 1.0x on h1 and h2c, so
# that httpvs's client is never what a transfer measures). httpvs get runs
# with the tuned client (256 KiB reads, 1 MiB HTTP/2 frames), as curl reads
# with its own large buffers: its default, Go as shipped, is what run
# measures Go by, not a downloader's best.
#
#   bench/download.sh [SIZE] [ROUNDS]     defaults: 4g 3
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to download "$@"
SIZE=${1:-4g}
ROUNDS=${2:-3}
command -v curl >/dev/null || { echo "bench/download.sh: curl is needed (apt-get install curl)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "bench/download.sh: python3 is needed for the medians" >&2; exit 1; }

bin=$(mktemp -d)/httpvs
go build -o "$bin" ./cmd/httpvs
port=$((20000 + RANDOM % 20000)); tport=$((port + 1))
"$bin" serve --listen 127.0.0.1:$port --tls-listen 127.0.0.1:$tport --no-h3 >/dev/null 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null; wait $srv 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$port/small && break; sleep 0.1; done

base=http://127.0.0.1:$port/$SIZE
tbase=https://127.0.0.1:$tport/$SIZE
results=$(mktemp)
# bytes/second from curl's own figure
curl_bps() { curl -s -o /dev/null -w '%{speed_download}' "$@"; }
httpvs_bps() { "$bin" get "$@" --read-size 256Ki --h2-max-frame 1Mi --json --no-server-stats | python3 -c 'import json,sys; print(json.load(sys.stdin)["bits_per_second"]/8)'; }

for r in $(seq "$ROUNDS"); do
  echo "round $r/$ROUNDS" >&2
  echo "h1 curl $(curl_bps "$base")" >>"$results"
  echo "h1 httpvs $(httpvs_bps "$base" -p h1)" >>"$results"
  echo "h2c curl $(curl_bps --http2-prior-knowledge "$base")" >>"$results"
  echo "h2c httpvs $(httpvs_bps "$base" -p h2c)" >>"$results"
  echo "h1-tls curl $(curl_bps -k --http1.1 "$tbase")" >>"$results"
  echo "h1-tls httpvs $(httpvs_bps "$tbase" -p h1-tls -k)" >>"$results"
  echo "h2 curl $(curl_bps -k --http2 "$tbase")" >>"$results"
  echo "h2 httpvs $(httpvs_bps "$tbase" -p h2 -k)" >>"$results"
done

python3 - "$results" "$SIZE" "$ROUNDS" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    t, tool, v = line.split()
    rows.setdefault((t, tool), []).append(float(v))
print(f"single-stream download of {sys.argv[2]} from httpvs serve, median of {sys.argv[3]} interleaved rounds (GB/s); httpvs get with 256Ki reads, 1Mi frames")
print(f"{'transport':<10}{'curl':>10}{'httpvs':>10}{'httpvs/curl':>13}")
for t in ["h1", "h2c", "h1-tls", "h2"]:
    c = statistics.median(rows[(t, "curl")]) / 1e9
    h = statistics.median(rows[(t, "httpvs")]) / 1e9
    print(f"{t:<10}{c:>10.2f}{h:>10.2f}{h / c:>12.2f}x")
PY
