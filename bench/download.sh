#!/usr/bin/env bash
# Single-stream download throughput: curl vs httpvs get, side by side, from
# one `httpvs serve` on loopback. Interleaved rounds; prints each median and
# the ratio httpvs/curl per transport, with each client's whole-process
# CPU per GB and its ratio (the aim: >= 1.0x on h1 and h2c, so
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
[ -x /usr/bin/time ] || { echo "bench/download.sh: /usr/bin/time is needed for the CPU figures (apt-get install time)" >&2; exit 1; }

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
ctime=$(mktemp)
# Each client's bytes/second (its own figure) and its whole-process CPU,
# user + system seconds (/usr/bin/time), on one line.
cpu() { awk '{print $1 + $2}' "$ctime"; }
curl_bps() { echo "$(/usr/bin/time -f '%U %S' -o "$ctime" curl -s -o /dev/null -w '%{speed_download} %{size_download}' "$@") $(cpu)"; }
httpvs_bps() {
  echo "$(/usr/bin/time -f '%U %S' -o "$ctime" "$bin" get "$@" --read-size 256Ki --h2-max-frame 1Mi --json --no-server-stats |
    python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["bits_per_second"]/8, d["bytes"])') $(cpu)"
}
# pair T CURL_FLAGS HTTPVS_FLAGS URL ROUND: one download each, curl first
# in odd rounds.
pair() {
  local t=$1 cf=$2 hf=$3 u=$4 r=$5
  if (( r % 2 )); then
    echo "$t curl $(curl_bps $cf "$u")" >>"$results"; echo "$t httpvs $(httpvs_bps "$u" $hf)" >>"$results"
  else
    echo "$t httpvs $(httpvs_bps "$u" $hf)" >>"$results"; echo "$t curl $(curl_bps $cf "$u")" >>"$results"
  fi
}

for r in $(seq "$ROUNDS"); do
  echo "round $r/$ROUNDS ($( (( r % 2 )) && echo "curl first" || echo "httpvs first"))" >&2
  pair h1 "" "-p h1" "$base" "$r"
  pair h2c --http2-prior-knowledge "-p h2c" "$base" "$r"
  pair h1-tls "-k --http1.1" "-p h1-tls -k" "$tbase" "$r"
  pair h2 "-k --http2" "-p h2 -k" "$tbase" "$r"
done

python3 - "$results" "$SIZE" "$ROUNDS" <<'PY'
import statistics, sys
rows, cpu = {}, {}
for line in open(sys.argv[1]):
    t, tool, bps, size, secs = line.split()
    rows.setdefault((t, tool), []).append(float(bps))
    cpu.setdefault((t, tool), []).append(float(secs) / (float(size) / 1e9))
print(f"single-stream download of {sys.argv[2]} from httpvs serve, median of {sys.argv[3]} interleaved rounds (GB/s); httpvs get with 256Ki reads, 1Mi frames;")
print("CPU s/GB: each client's whole process (/usr/bin/time, user + system) per GB received; ratios httpvs/curl (CPU below 1: httpvs cheaper)")
print(f"{'transport':<10}{'curl':>10}{'httpvs':>10}{'httpvs/curl':>13}{'curl s/GB':>11}{'httpvs':>8}{'CPU ratio':>10}  rounds' CPU ratios")
for t in ["h1", "h2c", "h1-tls", "h2"]:
    c = statistics.median(rows[(t, "curl")]) / 1e9
    h = statistics.median(rows[(t, "httpvs")]) / 1e9
    cc, hc = statistics.median(cpu[(t, "curl")]), statistics.median(cpu[(t, "httpvs")])
    each = " ".join(f"{x / y:.2f}" for x, y in zip(cpu[(t, "httpvs")], cpu[(t, "curl")]))
    print(f"{t:<10}{c:>10.2f}{h:>10.2f}{h / c:>12.2f}x{cc:>11.3f}{hc:>8.3f}{hc / cc:>9.2f}x  {each}")
PY
