#!/usr/bin/env bash
# Small-request throughput: wrk vs httpvs load on h1, h2load vs httpvs load
# on h2c, side by side against one `httpvs serve` on loopback, interleaved.
# Prints req/s medians and the ratio httpvs/peer (the aim: >= 1.0x, a generator that keeps up with the C ones).
#
#   bench/load.sh [SECONDS] [ROUNDS] [extra httpvs load flags...]   defaults: 10 2
# Needs wrk and h2load: apt-get install wrk nghttp2-client
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to load "$@"
SECS=${1:-10}
ROUNDS=${2:-2}
shift $(( $# > 2 ? 2 : $# )) || true
EXTRA=("$@")
for tool in wrk h2load python3 curl; do
  command -v $tool >/dev/null || { echo "bench/load.sh: $tool is needed (apt-get install wrk nghttp2-client python3 curl)" >&2; exit 1; }
done

bin=$(mktemp -d)/httpvs
go build -o "$bin" ./cmd/httpvs
port=$((20000 + RANDOM % 20000))
"$bin" serve --listen 127.0.0.1:$port --tls-listen "" >/dev/null 2>&1 &
srv=$!
trap 'kill $srv 2>/dev/null; wait $srv 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$port/small && break; sleep 0.1; done
url=http://127.0.0.1:$port/small
results=$(mktemp)

wrk_rps() { wrk -t2 -c50 -d"${SECS}s" "$url" | awk '/Requests\/sec/ {print $2}'; }
h2load_rps() { h2load -c10 -m10 -D "$SECS" "$url" | awk '/^finished in/ {for (i=1;i<=NF;i++) if ($i=="req/s,") print $(i-1)}'; }
httpvs_rps() { "$bin" load "$url" -d "${SECS}s" --json "$@" "${EXTRA[@]}" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["requests_per_second"], d["engine"], d["errors"]["total"])'; }

for r in $(seq "$ROUNDS"); do
  # Odd rounds run the peer first, even rounds httpvs first, so neither
  # always inherits the server's state (heap, TIME_WAIT sockets) from the other.
  echo "round $r/$ROUNDS ($( (( r % 2 )) && echo "peers first" || echo "httpvs first"))" >&2
  if (( r % 2 )); then
    w=$(wrk_rps); h=$(httpvs_rps -p h1 -c 50)
    p=$(h2load_rps); h2=$(httpvs_rps -p h2c -c 10 -m 10)
  else
    h=$(httpvs_rps -p h1 -c 50); w=$(wrk_rps)
    h2=$(httpvs_rps -p h2c -c 10 -m 10); p=$(h2load_rps)
  fi
  echo "h1 wrk $w" >>"$results"; echo "h1 httpvs $h" >>"$results"
  echo "h2c h2load $p" >>"$results"; echo "h2c httpvs $h2" >>"$results"
  echo "  h1:  wrk $w  httpvs ${h%% *}" >&2
  echo "  h2c: h2load $p  httpvs ${h2%% *}" >&2
done

python3 - "$results" "$SECS" "$ROUNDS" <<'PY'
import statistics, sys
rows, engines, errors = {}, {}, 0
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault((f[0], f[1]), []).append(float(f[2]))
    if len(f) > 3:
        engines[f[0]] = f[3]
        errors += int(f[4])
print(f"GET /small, {sys.argv[2]} s per run, median of {sys.argv[3]} interleaved rounds (req/s)")
print(f"{'transport':<10}{'peer':>8}{'peer req/s':>12}{'httpvs':>10}{'engine':>8}{'ratio':>8}  each round")
for t, peer in [("h1", "wrk"), ("h2c", "h2load")]:
    p = statistics.median(rows[(t, peer)])
    h = statistics.median(rows[(t, "httpvs")])
    each = " ".join(f"{x / y:.2f}" for x, y in zip(rows[(t, "httpvs")], rows[(t, peer)]))
    print(f"{t:<10}{peer:>8}{p:>12.0f}{h:>10.0f}{engines.get(t, '?'):>8}{h / p:>7.2f}x  {each}")
if errors:
    print(f"httpvs counted {errors} failed requests across the runs")
PY
