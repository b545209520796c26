#!/usr/bin/env bash
# Attribution leaves the measured figures alone: the same run
# (download and small-sequential over h1 and h2c, REPEAT rounds) made
# PAIRS times without --profile and PAIRS times with it, alternately (ABBA), and
# each cell's median with profiling over its median without (profiles are
# taken in rounds of their own after the measured ones, so the ratio
# should sit within the machine's noise, bench/noise.sh). Then where the
# h2c cells' extra CPU went, as httpvs explain prints it.
#
#   bench/attribution.sh [REPEAT] [PAIRS]     defaults 5, 4
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to attribution "$@"
REPEAT=${1:-5}
PAIRS=${2:-4}
command -v python3 >/dev/null || { echo "bench/attribution.sh: python3 is needed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
args=(run --scenarios download,small-sequential --protocols h1,h2c --repeat "$REPEAT")
echo "httpvs ${args[*]}, $PAIRS time(s) without and with --profile DIR, alternately"
echo
plain() { "$dir/httpvs" "${args[@]}" --out "$dir/plain$1" >/dev/null 2>"$dir/plain$1.err" || { cat "$dir/plain$1.err" >&2; exit 1; }; }
prof() { "$dir/httpvs" "${args[@]}" --out "$dir/prof$1" --profile "$dir/pprof$1" >/dev/null 2>"$dir/prof$1.err" || { cat "$dir/prof$1.err" >&2; exit 1; }; }
for i in $(seq "$PAIRS"); do
  # ABBA: each kind runs first in half the pairs, so drift over the
  # script's minutes lands on both.
  if [ $((i % 2)) -eq 1 ]; then plain "$i"; prof "$i"; else prof "$i"; plain "$i"; fi
done
python3 - "$dir" "$PAIRS" <<'PY'
import glob, json, math, statistics as st, sys
d, pairs = sys.argv[1], int(sys.argv[2])
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262}
def medians(kind, i):
    r = json.load(open(glob.glob(f"{d}/{kind}{i}/*/results.json")[0]))
    return {(c["scenario"], c["protocol"]): c["median"] for c in r["cells"] if not c.get("skipped")}
plain = [medians("plain", i) for i in range(1, pairs + 1)]
prof = [medians("prof", i) for i in range(1, pairs + 1)]
def interval(logs):
    m = st.mean(logs)
    if len(logs) < 2:
        return math.exp(m), float("nan"), float("nan")
    h = T975.get(len(logs) - 1, 1.96) * st.stdev(logs) / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - h), math.exp(m + h)
print(f"{'cell':24} {'without (median of runs)':>25} {'with':>12} {'with/without, paired by pair, 95% interval':>44}")
held = 0
cells = sorted(plain[0])
for k in cells:
    logs = [math.log(b[k] / a[k]) for a, b in zip(plain, prof) if k in a and k in b]
    g, lo, hi = interval(logs)
    inside = lo <= 1 <= hi
    held += inside
    print(f"{k[0] + '/' + k[1]:24} {st.median(a[k] for a in plain):25.4g} {st.median(b[k] for b in prof):12.4g} {g:10.3f}x [{lo:.3f}, {hi:.3f}] {'holds 1' if inside else 'excludes 1'}")
print()
print(f"{held} of {len(cells)} cells' intervals hold 1: no effect of --profile on the measured rounds detected,")
print(f"within intervals as wide as this machine's run-to-run spread over {pairs} pairs allows (bench/noise.sh)")
PY
echo
echo "httpvs explain (the last run with --profile):"
"$dir/httpvs" explain "$(ls -d "$dir"/prof"$PAIRS"/*/results.json)"
