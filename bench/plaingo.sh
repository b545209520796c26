#!/usr/bin/env bash
# download h2c/h1 where a plain Go program puts it: bench/plaingo (net/http
# on both ends, io.Copy(io.Discard, body), golang/go#47840's experiment,
# nothing of httpvs) beside httpvs run's download cell, alternated PAIRS
# times in one session. Prints each one's h2c/h1 rounds, then the
# geometric mean of each side's ratios with its 95% interval (Student's t
# on the logs) and the ratio of the two. The aim: httpvs's figure where
# the plain program's is (their ratio near 1); a run that departs from it
# measures something a Go program does not do.
#
#   bench/plaingo.sh [PAIRS [ROUNDS]]     defaults: 3 10
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to plaingo "$@"
PAIRS=${1:-3}
ROUNDS=${2:-10}
for v in "$PAIRS" "$ROUNDS"; do
  case $v in '' | *[!0-9]* | 0) echo "bench/plaingo.sh: $v: want a positive count, e.g. bench/plaingo.sh 3 10" >&2; exit 2 ;; esac
done
command -v python3 >/dev/null || { echo "bench/plaingo.sh: python3 is needed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
go build -o "$dir/plaingo" ./bench/plaingo
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$PAIRS"); do
  "$dir/plaingo" -rounds "$ROUNDS" >"$dir/plain$i.txt"
  "$dir/httpvs" run --scenarios download -p h1,h2c --repeat "$ROUNDS" --max-repeat "$ROUNDS" --budget 0 --aa none --json --no-files >"$dir/run$i.json" 2>"$dir/run$i.err" || { cat "$dir/run$i.err" >&2; exit 1; }
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$dir" "$PAIRS" <<'PY'
import json, math, statistics as st, sys
out, pairs = sys.argv[1], int(sys.argv[2])
# Student's t, 97.5% quantile, by degrees of freedom (1-30); past 30 the
# normal's with the usual correction.
T = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
     2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
def gm(logs):
    m = st.mean(logs)
    df = len(logs) - 1
    t = T[df - 1] if df <= 30 else 1.96 + 2.4 / df
    h = t * st.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - h), math.exp(m + h)
plain, run = [], []
for i in range(1, pairs + 1):
    p = [math.log(float(l.split()[-1])) for l in open(f"{out}/plain{i}.txt") if l.startswith("round")]
    res = json.load(open(f"{out}/run{i}.json"))
    cells = {c["protocol"]: c for c in res["cells"] if c["scenario"] == "download"}
    h1 = {r["round"]: r["value"] for r in cells["h1"]["repetitions"]}
    r = [math.log(x["value"] / h1[x["round"]]) for x in cells["h2c"]["repetitions"] if x["round"] in h1 and x["value"] > 0]
    plain += p
    run += r
    a, b = gm(p), gm(r)
    print(f"pair {i}: plain Go h2c/h1 {a[0]:.3f}x [{a[1]:.3f}, {a[2]:.3f}] ({len(p)} rounds); httpvs run download/h2c {b[0]:.3f}x [{b[1]:.3f}, {b[2]:.3f}] ({len(r)} rounds)")
a, b = gm(plain), gm(run)
print(f"all: plain Go h2c/h1 {a[0]:.3f}x [{a[1]:.3f}, {a[2]:.3f}] ({len(plain)} rounds); httpvs run {b[0]:.3f}x [{b[1]:.3f}, {b[2]:.3f}] ({len(run)} rounds); httpvs over plain {b[0]/a[0]:.2f}")
PY
