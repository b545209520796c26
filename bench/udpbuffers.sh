#!/usr/bin/env bash
# Does the quic-losses advice move its figure? It says that QUIC packets
# lost on loopback mean full socket buffers, and that raising the kernel's
# caps (net.core.rmem_max and wmem_max) to what quic-go asks, 7.5 MB,
# cures them. This measures h3's download beside h1's on loopback with the
# caps as found (what a user without root keeps) and raised, in
# interleaved rounds (the order turns each round), each round a fresh
# `httpvs run` (quic-go sizes its buffers as a connection opens): the
# QUIC packets declared lost per GB, h3's rate and its ratio to h1.
# Needs root to set the caps, and puts them back as they were.
#
#   bench/udpbuffers.sh [ROUNDS]     default: 3
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
if [ "$(id -u)" -ne 0 ]; then
  echo "bench/udpbuffers.sh: setting net.core.rmem_max and wmem_max needs root: not measured" >&2
  exit 1
fi
record_to udpbuffers "$@"
ROUNDS=${1:-3}
RAISED=7500000
rmem=$(sysctl -n net.core.rmem_max) wmem=$(sysctl -n net.core.wmem_max)
dir=$(mktemp -d)
trap 'sysctl -q -w net.core.rmem_max="$rmem" net.core.wmem_max="$wmem"; rm -rf "$dir"' EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
echo "caps as found: rmem_max $rmem, wmem_max $wmem; raised: $RAISED each"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
measure() { # SETTING ROUND
  local r=$rmem w=$wmem
  [ "$1" = found ] || r=$RAISED w=$RAISED
  sysctl -q -w net.core.rmem_max="$r" net.core.wmem_max="$w"
  "$dir/httpvs" run --scenarios download --protocols h1,h3 --repeat 5 --aa none --no-files --json >"$dir/$1-$2.json" 2>"$dir/$1-$2.err"
  echo "round $2, caps $1: done" >&2
}
for i in $(seq "$ROUNDS"); do
  if (( i % 2 )); then measure found "$i"; measure raised "$i"; else measure raised "$i"; measure found "$i"; fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$dir" "$ROUNDS" <<'PY'
import json, statistics as st, sys
d, rounds = sys.argv[1], int(sys.argv[2])
print("h3 download on loopback, Go as shipped, 5 repetitions a run; per run: QUIC packets declared lost (client and server) per GB moved,")
print("h3's median MB/s and its ratio to h1 with its interval; lost per GB and MB/s: median over the runs")
print(f"{'caps':<8}{'lost/GB':>10}{'h3 MB/s':>10}  h3/h1 per run")
out = {}
for setting in ["found", "raised"]:
    lost, rates, ratios = [], [], []
    for i in range(1, rounds + 1):
        r = json.load(open(f"{d}/{setting}-{i}.json"))
        c = next(c for c in r["cells"] if c["protocol"] == "h3")
        n = sum(x.get("client_quic", {}).get("packets_lost", 0) + ((x.get("server") or {}).get("quic") or {}).get("packets_lost", 0) for x in c["repetitions"])
        gb = sum(x.get("bytes", 0) for x in c["repetitions"]) / 1e9
        lost.append(n / max(gb, 1e-9))
        rates.append(c["median"] / 1e6)
        iv = c.get("vs_h1") or {}
        ratios.append(f"{iv.get('ratio', 0):.2f}x [{iv.get('low', 0):.2f}, {iv.get('high', 0):.2f}]")
    out[setting] = (st.median(lost), st.median(rates))
    print(f"{setting:<8}{st.median(lost):>10.0f}{st.median(rates):>10.0f}  {'  '.join(ratios)}")
(fl, fr), (rl, rr) = out["found"], out["raised"]
print(f"raising the caps: lost per GB {fl:.0f} -> {rl:.0f}, h3 {fr:.0f} -> {rr:.0f} MB/s ({rr / fr:.2f}x)")
PY
