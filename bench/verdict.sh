#!/usr/bin/env bash
# Verdict stability: runs the default `httpvs run` RUNS times and prints,
# per verdict cell (scenario x transport against h1), the ratio of each run
# with its interval, whether it was stable (half-width within 10%), whether
# its verdict (slower / similar / faster) flipped between runs, and how far
# its ratio moved, and the cells whose intervals in two runs share no
# value, the cells decided (slower, faster or similar) in each run, and how
# often one run's ratio falls inside another's interval. Targets: at least
# 43 of 44 decided in each run, no cell slower in one run and faster in
# another, the other run's ratio inside at least 80% of the intervals. Per
# run it prints the decided count, the median and largest half-width and
# the count within ±25%, beside the run's time. Half-widths here are
# geometric, sqrt(high/low) - 1 ([0.32, 0.91] is ±69%): what a reader of a
# ratio needs. With --net it
# also prints the time each run promised before its cells beside the time
# it took (met within a fifth), and marks cells found unexplained with !.
#
#   bench/verdict.sh [RUNS] [extra httpvs run flags...]     default RUNS: 3
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to verdict "$@"
RUNS=${1:-3}
shift $(( $# > 0 ? 1 : 0 )) || true
command -v python3 >/dev/null || { echo "bench/verdict.sh: python3 is needed" >&2; exit 1; }

bin=$(mktemp -d)/httpvs
go build -o "$bin" ./cmd/httpvs
out=$(mktemp -d)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (2 cores; other work on the machine widens the intervals and slows the runs)"
for i in $(seq "$RUNS"); do
  start=$(date +%s.%N)
  "$bin" run --json --no-files "$@" >"$out/run$i.json" 2>"$out/run$i.err" || { echo "run $i failed" >&2; cat "$out/run$i.err" >&2; exit 1; }
  took=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")
  # The time the run printed before its cells (across a link: "about
  # 5m3s in all, at most 6m1s"), beside the time it took.
  promised=$(grep -o 'about [^,;]* in all\(, at most [0-9hms.]*\)\?' "$out/run$i.err" || true)
  echo "run $i: ${took} s${promised:+ (printed before the cells: $promised)}" >&2
  echo "run $i: ${took} s${promised:+ (printed before the cells: $promised)}"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" "$RUNS" <<'PY'
import json, sys, math
from datetime import datetime
out, runs = sys.argv[1], int(sys.argv[2])
def geo(iv):
    # The geometric half-width, sqrt(high/low) - 1.
    return math.sqrt(iv["high"] / iv["low"]) - 1 if iv["pairs"] >= 2 and iv["low"] > 0 else math.inf
cells = {}
for i in range(1, runs + 1):
    res = json.load(open(f"{out}/run{i}.json"))
    for c in res["cells"]:
        iv = c.get("vs_h1")
        if c["protocol"] == (res["settings"].get("baseline") or "h1") or not iv:
            continue
        iv = dict(iv, unexplained=(c.get("bound") or {}).get("unexplained", False))
        cells.setdefault((c["scenario"], c["protocol"]), []).append(iv)
stable = total = flips = apart = opposite = inside = pairs = 0
per_run = [0] * runs
decided = [0] * runs
moves = []
print(f"{'cell':34} " + "  ".join(f"run{i+1:<18}" for i in range(runs)) + " moved")
for (sc, p), ivs in cells.items():
    cols = []
    for i, iv in enumerate(ivs):
        half = geo(iv)
        total += 1
        stable += half <= 0.10
        per_run[i] += half <= 0.10
        decided[i] += iv["verdict"] in ("slower", "faster", "similar")
        cols.append(f"{iv['ratio']:.2f}x ±{half*100:3.0f}% {(iv['verdict'] or '?') + ('!' if iv.get('unexplained') else ''):8}")
    verdicts = {iv["verdict"] for iv in ivs}
    flip = len(verdicts) > 1
    opposite += "slower" in verdicts and "faster" in verdicts
    for a in ivs:
        for b in ivs:
            if a is not b and a["pairs"] >= 2:
                pairs += 1
                inside += a["low"] <= b["ratio"] <= a["high"]
    flips += flip
    # Two runs' 95% intervals that share no value: one of them is wrong
    # (or the machine changed between them).
    disjoint = any(a["pairs"] >= 2 and b["pairs"] >= 2 and (a["high"] < b["low"] or b["high"] < a["low"]) for a in ivs for b in ivs)
    apart += disjoint
    rs = [iv["ratio"] for iv in ivs]
    move = (max(rs) - min(rs)) / (sum(rs) / len(rs))
    moves.append(move)
    print(f"{sc + '/' + p:34} " + "  ".join(f"{c:20}" for c in cols) + f" {move*100:4.0f}%" + ("  FLIP" if flip else "") + ("  APART" if disjoint else ""))
moves.sort()
print(f"\nstable cells (95% interval geometric half-width <= 10%): {stable} of {total} ({100*stable/max(total,1):.0f}%)")
print("stable cells per run: " + ", ".join(f"run{i+1} {n} of {len(cells)}" for i, n in enumerate(per_run)))
print(f"cells whose verdict flipped between runs: {flips} of {len(cells)} (! marks a cell the run found unexplained against its link's bound)")
print(f"cells whose 95% intervals in two runs share no value (APART): {apart} of {len(cells)}")
print("decided cells per run (slower, faster or similar): " + ", ".join(f"run{i+1} {n} of {len(cells)}" for i, n in enumerate(decided)))
print(f"cells slower in one run and faster in another: {opposite} of {len(cells)}")
print(f"another run's ratio inside a run's interval: {inside} of {pairs} ({100*inside/max(pairs,1):.0f}%)")
for i in range(1, runs + 1):
    res = json.load(open(f"{out}/run{i}.json"))
    aa = [c for c in res.get("aa") or [] if (c.get("vs_h1") or {}).get("pairs", 0) >= 2]
    if aa:
        print(f"run{i} noise floor (A/A): " + ", ".join(f'{c["scenario"]} {c["vs_h1"]["ratio"]:.2f}x [{c["vs_h1"]["low"]:.2f}, {c["vs_h1"]["high"]:.2f}] {c["vs_h1"]["verdict"]}' for c in aa)
              + f'; pinned: {"yes" if res["settings"].get("pin") else "no"}')
for i in range(1, runs + 1):
    res = json.load(open(f"{out}/run{i}.json"))
    ivs = [c["vs_h1"] for c in res["cells"] if c.get("vs_h1") and c["protocol"] != (res["settings"].get("baseline") or "h1")]
    hw = sorted(geo(iv) for iv in ivs)
    dec = sum(iv["verdict"] in ("slower", "faster", "similar") for iv in ivs)
    secs = (datetime.fromisoformat(res["finished"].replace("Z", "+00:00")) - datetime.fromisoformat(res["started"].replace("Z", "+00:00"))).total_seconds()
    s = res["settings"]
    med = hw[len(hw) // 2] if len(hw) % 2 else (hw[len(hw) // 2 - 1] + hw[len(hw) // 2]) / 2
    # A word an earlier look decided, kept where the last look's own
    # interval (drift: the looks' intersection leaves out the mean) would
    # reopen it.
    kept = sum((iv["verdict"] == "slower" and iv["high"] >= 1) or (iv["verdict"] == "faster" and iv["low"] <= 1) for iv in ivs)
    print(f"run{i}: {dec} of {len(ivs)} decided ({kept} by an earlier look's word); half-width median ±{100*med:.0f}%, largest ±{100*hw[-1]:.0f}%, "
          f"{sum(h <= 0.25 for h in hw)} of {len(ivs)} within ±25%, {sum(h > 0.40 for h in hw)} wider than ±40%; "
          f"{secs:.1f} s; {s.get('extra_rounds', 0)} rounds added, {s.get('precision_rounds', 0)} of them for precision")
print(f"ratio movement between runs, (max-min)/mean: median {100*moves[len(moves)//2]:.0f}%, max {100*moves[-1]:.0f}%")
PY
