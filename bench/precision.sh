#!/usr/bin/env bash
# Where a default run's minute goes and what sets its intervals' width,
# for one build under several sets of `httpvs run` flags (arms) run in
# alternating order (round i runs the arms rotated by i), so that load
# from other work on the machine lands on every arm alike.
#
# Per run: the decided cells, the median and largest geometric
# half-width (sqrt(high/low) - 1) and the count within ±25%, the pairs a
# cell got, and how the run's time splits: the measured windows of the
# repetitions that pair into an interval (verdict cells, their baseline
# and the A/A columns), the rounds added to decide and for precision, and
# the rest (checks, warm-up, connection set-up, server counters, the
# analysis). Per arm: the round-to-round spread of the log ratio (sample
# standard deviation, the one the sequential rule's t intervals assume,
# beside 1.4826 x the median absolute deviation, which a few outlier
# rounds do not move), the share of cells whose spread is more than 1.5
# times their robust spread (a few rounds dominate), the half-width's
# multiple of sd/sqrt(pairs) (what the design costs over the spread),
# and the A/A cells' verdicts (any "slower" or "faster" is a false call).
#
#   bench/precision.sh ROUNDS 'ARM FLAGS' ['ARM FLAGS'...]
#   e.g. bench/precision.sh 3 '' '-d 50ms' '-d 200ms'
# An empty arm is the default run.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
[ $# -ge 2 ] || { echo "bench/precision.sh: want ROUNDS and at least one arm, e.g. bench/precision.sh 3 '' '-d 50ms'" >&2; exit 2; }
ROUNDS=$1
case $ROUNDS in '' | *[!0-9]*) echo "bench/precision.sh: ROUNDS $ROUNDS: want a count, e.g. 3" >&2; exit 2 ;; esac
record_to precision "$@"
shift
arms=("$@")
command -v python3 >/dev/null || { echo "bench/precision.sh: python3 is needed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; other work on the machine widens the intervals)"
for i in $(seq "$ROUNDS"); do
  for k in $(seq 0 $((${#arms[@]} - 1))); do
    a=$(((k + i) % ${#arms[@]}))
    # shellcheck disable=SC2086 # an arm is a list of flags
    (cd "$dir" && ./httpvs run --no-files --json ${arms[$a]} >"arm$a-run$i.json" 2>"arm$a-run$i.err") ||
      { echo "bench/precision.sh: arm $a run $i failed: $(tail -3 "$dir/arm$a-run$i.err")" >&2; exit 1; }
    echo "round $i arm $a ('${arms[$a]}'): load average $(cut -d' ' -f1-3 /proc/loadavg)"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$dir" "$ROUNDS" "${arms[@]}" <<'PY'
import json, math, statistics as st, sys
from datetime import datetime
d, rounds, arms = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def clean(x):
    return not x["interrupted"] and x["errors"]["total"] == 0 and x["value"] > 0
def logs(c, b):
    bv = {x["round"]: x["value"] for x in b["repetitions"] if clean(x)}
    return [math.log(x["value"] / bv[x["round"]]) for x in c["repetitions"] if clean(x) and x["round"] in bv]
def geo(iv):
    return math.sqrt(iv["high"] / iv["low"]) - 1
def when(s):
    return datetime.fromisoformat(s.replace("Z", "+00:00")[:26] + "+00:00")
def med(xs):
    return st.median(xs) if xs else float("nan")
for a, flags in enumerate(arms):
    sds, mads, mults, outl, hws, aa, pairs = [], [], [], 0, [], [], []
    print(f"arm {a} ('{flags}'):")
    for i in range(1, rounds + 1):
        r = json.load(open(f"{d}/arm{a}-run{i}.json"))
        s, base = r["settings"], r["settings"].get("baseline") or "h1"
        cells = r["cells"] + (r.get("aa") or [])
        by = {(c["scenario"], c["protocol"]): c for c in r["cells"]}
        secs = (when(r["finished"]) - when(r["started"])).total_seconds()
        paired, ivs = set(), []
        for c in cells:
            iv = c.get("vs_h1")
            if not iv or not iv.get("low") or iv["pairs"] < 2:
                continue
            b = by.get((c["scenario"], base))
            paired.add(id(c)); paired.add(id(b))
            L = logs(c, b)
            if len(L) >= 2 and st.stdev(L) > 0:
                sd, m = st.stdev(L), st.median(L)
                mad = 1.4826 * st.median([abs(x - m) for x in L])
                sds.append(sd); mads.append(mad); outl += sd > 1.5 * mad
                mults.append(math.log(iv["high"] / iv["low"]) / 2 / (sd / math.sqrt(len(L))))
            if c in r["cells"]:
                ivs.append(iv)
            else:
                aa.append(f'{c["scenario"]} {iv["verdict"]}')
        measured = sum(x["seconds"] for c in cells if id(c) in paired for x in c["repetitions"] if clean(x))
        hw = sorted(geo(iv) for iv in ivs)
        hws += hw
        pairs += [iv["pairs"] for iv in ivs]
        dec = sum(iv["verdict"] in ("slower", "faster", "similar") for iv in ivs)
        print(f"  run {i}: {dec} of {len(ivs)} decided; half-width median ±{100*med(hw):.0f}%, largest ±{100*hw[-1]:.0f}%, "
              f"{sum(h <= 0.25 for h in hw)} within ±25%; pairs a cell median {med([iv['pairs'] for iv in ivs]):.0f}; "
              f"{secs:.1f} s, of it {measured:.1f} s ({100*measured/secs:.0f}%) measured windows that pair; "
              f"{s.get('extra_rounds', 0)} rounds added, {s.get('precision_rounds', 0)} for precision; first stage {s.get('repeat')}, "
              f"repetition {s.get('duration_seconds')} s{'; paced: ' + s['paced'] if s.get('paced') else ''}")
    fa = sum(v.endswith(("slower", "faster")) for v in aa)
    print(f"  arm {a}: half-width median ±{100*med(hws):.1f}% over {len(hws)} cells, pairs median {med(pairs):.0f}; "
          f"round spread of the log ratio median {med(sds):.3f} (robust {med(mads):.3f}), "
          f"{outl} of {len(sds)} cells with spread over 1.5x robust; half-width / (sd/sqrt(pairs)) median {med(mults):.2f}; "
          f"A/A {fa} false calls of {len(aa)}")
PY
