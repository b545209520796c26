#!/usr/bin/env bash
# Two commits' default runs side by side: httpvs built at REV_A and at
# REV_B, N default runs of each in alternating order (A B, B A, ...),
# each run's decided cells (slower, faster or similar) and its cells'
# interval half-widths (log scale: half the log of high over low), then
# for each commit the median half-width and the A/A verdicts. A change
# meant to narrow the intervals shows in the half-widths; the A/A lines
# show it did not buy that with false calls. The last line says how far
# B's ratios sit from A's (each cell's median over its runs), so that a
# change that narrows the intervals is seen not to move what they hold.
# AB_KEEP=DIR keeps the runs' results.json files in DIR.
#
#   bench/ab.sh REV_A REV_B [N]     default N: 3
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
[ $# -ge 2 ] || { echo "bench/ab.sh: want two revisions, e.g. bench/ab.sh HEAD~1 HEAD 3" >&2; exit 2; }
A=$(git rev-parse --short "$1") B=$(git rev-parse --short "$2") N=${3:-3}
case $N in '' | *[!0-9]*) echo "bench/ab.sh: N $N: want a count of runs, e.g. 3" >&2; exit 2 ;; esac
record_to ab "$@"
command -v python3 >/dev/null || { echo "bench/ab.sh: python3 is needed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'git worktree remove --force "$dir/wa" 2>/dev/null; git worktree remove --force "$dir/wb" 2>/dev/null; [ -z "${AB_KEEP:-}" ] || { mkdir -p "$AB_KEEP"; cp "$dir"/*.json "$AB_KEEP"/ 2>/dev/null; }; rm -rf "$dir"' EXIT
for x in a b; do
  rev=$A; [ $x = b ] && rev=$B
  git worktree add -q --detach "$dir/w$x" "$rev"
  (cd "$dir/w$x" && go build -o "$dir/httpvs-$x" ./cmd/httpvs)
done
echo "A $A, B $B; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$N"); do
  order="a b"; [ $((i % 2)) -eq 1 ] || order="b a"
  for x in $order; do
    (cd "$dir" && "./httpvs-$x" run --no-files --json >"$x$i.json" 2>"$x$i.err") ||
      { echo "bench/ab.sh: $x run $i failed: $(tail -3 "$dir/$x$i.err")" >&2; exit 1; }
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$dir" "$N" "$A" "$B" <<'PY'
import json, math, statistics as st, sys
d, n, names = sys.argv[1], int(sys.argv[2]), {"a": sys.argv[3], "b": sys.argv[4]}
def half(iv):
    return (math.log(iv["high"]) - math.log(iv["low"])) / 2
for x in "ab":
    hw, dec, aa = [], [], []
    for i in range(1, n + 1):
        r = json.load(open(f"{d}/{x}{i}.json"))
        cs = [c for c in r["cells"] if (c.get("vs_h1") or {}).get("low")]
        k = sum(1 for c in cs if c["vs_h1"]["verdict"] != "undetermined")
        dec.append(k)
        hw += [half(c["vs_h1"]) for c in cs]
        aa += [f'{c["scenario"]} {c["vs_h1"]["ratio"]:.2f}x {c["vs_h1"]["verdict"]}' for c in r.get("aa") or [] if (c.get("vs_h1") or {}).get("low")]
        print(f"{x.upper()} {names[x]} run {i}: decided {k} of {len(cs)}, {r['settings'].get('extra_rounds')} rounds added")
    print(f"{x.upper()} {names[x]}: decided {dec}; half-width (log) median {st.median(hw):.3f}, mean {st.mean(hw):.3f}")
    print(f"{x.upper()} {names[x]} A/A: " + "; ".join(aa))
logs = {"a": {}, "b": {}}
for x in "ab":
    for i in range(1, n + 1):
        for c in json.load(open(f"{d}/{x}{i}.json"))["cells"]:
            if (c.get("vs_h1") or {}).get("low"):
                logs[x].setdefault((c["scenario"], c["protocol"]), []).append(math.log(c["vs_h1"]["ratio"]))
shift = [st.median(logs["b"][k]) - st.median(v) for k, v in logs["a"].items() if k in logs["b"]]
if shift:
    print(f"B's ratios over A's, cell by cell: median {math.exp(st.median(shift)):.3f}x, "
          f"middle half {math.exp(st.quantiles(shift, n=4)[0]):.3f}x to {math.exp(st.quantiles(shift, n=4)[2]):.3f}x, over {len(shift)} cells")
PY
