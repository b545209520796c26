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
def cells(kind):
    out = {}
    for i in range(1, pairs + 1):
        r = json.load(open(glob.glob(f"{d}/{kind}{i}/*/results.json")[0]))
        for c in r["cells"]:
            if c.get("skipped"):
                continue
            out.setdefault((c["scenario"], c["protocol"]), []).append(c["median"])
    return out
plain, prof = cells("plain"), cells("prof")
print(f"{'cell':28} {'without':>12} {'with':>12} {'with/without':>13}")
logs = []
for k in sorted(plain):
    a, b = st.median(plain[k]), st.median(prof.get(k, [float('nan')]))
    logs.append(math.log(b / a))
    print(f"{k[0] + '/' + k[1]:28} {a:12.4g} {b:12.4g} {b / a:12.3f}x")
print()
print(f"geometric mean of with/without over {len(logs)} cells: {math.exp(sum(logs) / len(logs)):.3f}x, largest departure {max(abs(math.exp(l) - 1) for l in logs) * 100:.1f}%")
PY
echo
echo "httpvs explain (the last run with --profile):"
"$dir/httpvs" explain "$(ls -d "$dir"/prof"$PAIRS"/*/results.json)"
