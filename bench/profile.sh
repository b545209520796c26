#!/usr/bin/env bash
# Where the measuring side's CPU goes, in the three cases where
# bench/peers.sh records httpvs costing more per request or per GB than
# its peer: httpvs load's fast engine over h1 against h2o (wrk's case),
# over h3 against caddy (oha's), and httpvs get over h1 from httpvs serve
# with 256Ki reads (curl's). Each runs with --cpuprofile; the record keeps
# each profile's top functions (flat and cumulative) and the share of
# samples in system calls, Go's runtime, quic-go, crypto and httpvs's
# own code, so that a note saying what keeps a figure above its peer's
# names the function that spends it.
#
#   bench/profile.sh [SECONDS] [SIZE]   defaults: 5 4000000000
# Needs h2o, caddy, curl, python3 and go's pprof; the h3 case is left out
# (and the record says so) without caddy.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to profile "$@"
SECS=${1:-5}
SIZE=${2:-4000000000}
for tool in h2o curl python3; do
  command -v $tool >/dev/null || { echo "bench/profile.sh: $tool is needed (apt-get install h2o curl python3)" >&2; exit 1; }
done

peer_setup

start_peer h2o 3
h2o_h1=$(peer_url h2o h1)
caddy_h3=
if command -v caddy >/dev/null; then
  start_peer caddy 4
  caddy_h3=$(peer_url caddy h3)
fi
port=$((20000 + RANDOM % 20000))
"$bin" serve --listen 127.0.0.1:$port --tls-listen "" --grpc-listen "" >/dev/null 2>&1 3>&- 4>&- &
pids+=($!)
for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$port/small && break; sleep 0.1; done

# summary NAME PROFILE: the profile's top functions and its shares by layer.
summary() {
  echo
  echo "== $1"
  go tool pprof -top -nodecount=12 "$2" 2>/dev/null | sed -n '/^Duration/p;/flat%/,$p'
  echo "-- cumulative"
  go tool pprof -top -cum -nodecount=14 "$2" 2>/dev/null | sed -n '/flat%/,$p'
  # Each sample's leaf frame, by layer: the share of CPU each one spends itself.
  go tool pprof -traces "$2" 2>/dev/null | python3 -c '
import re, sys
layers = [("system calls", r"^(internal/runtime/syscall|syscall\.|golang.org/x/sys/unix)"),
          ("quic-go", r"^github.com/quic-go/"), ("crypto", r"^(crypto/|vendor/golang.org/x/crypto)"),
          ("httpvs", r"^github.com/httpvs/"), ("Go runtime", r"^runtime\."), ("net/http and the rest", r"")]
shares, total, leaf, ms = {}, 0.0, True, 0.0
for line in sys.stdin:
    m = re.match(r"^\s+(\d+(?:\.\d+)?)(ms|s)\s+(\S+)", line)
    if m:
        ms = float(m.group(1)) * (1000 if m.group(2) == "s" else 1)
        fn = m.group(3)
        for name, rx in layers:
            if re.match(rx, fn):
                shares[name] = shares.get(name, 0) + ms
                break
        total += ms
print("-- leaf frames by layer: " + ", ".join(f"{n} {100*shares.get(n,0)/max(total,1):.0f}%" for n, _ in layers))'
}

"$bin" load "$h2o_h1/small" -p h1 -c 50 -d "${SECS}s" --cpuprofile "$tmp/h1.pprof" >"$tmp/h1.txt" 2>&1
echo "httpvs load -p h1 -c 50 -d ${SECS}s against h2o (one thread): $(grep -m1 -o '[0-9.]* req/s' "$tmp/h1.txt" || echo '?')"
summary "load h1, fast engine, against h2o" "$tmp/h1.pprof"

if [ -n "$caddy_h3" ]; then
  "$bin" load "$caddy_h3/small" -p h3 -k -c 10 -m 10 -d "${SECS}s" --cpuprofile "$tmp/h3.pprof" >"$tmp/h3.txt" 2>&1
  echo
  echo "httpvs load -p h3 -k -c 10 -m 10 -d ${SECS}s against caddy: $(grep -m1 -o '[0-9.]* req/s' "$tmp/h3.txt" || echo '?')"
  summary "load h3, fast engine, against caddy" "$tmp/h3.pprof"
else
  echo "no h3 case: caddy is not installed (apt-get install caddy)"
fi

mkdir "$tmp/get"
"$bin" get "http://127.0.0.1:$port/$SIZE" -p h1 --read-size 256Ki --no-server-stats --profile "$tmp/get" >"$tmp/get.txt" 2>&1
echo
grep -E 'client received|CPU' "$tmp/get.txt" | sed 's/^ *//'
summary "get h1, 256Ki reads, from httpvs serve" "$tmp/get/download.client.cpu.pprof"
