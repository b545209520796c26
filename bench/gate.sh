#!/usr/bin/env bash
# gate: what httpvs compare --fail-on changed does on pairs of run --ci,
# both of the gate's rates in one command (the targets: at most 1 false
# alarm in 20 same-build pairs, a slowdown caught in at least 9 of 10,
# each run --ci within about 30 s):
#  1. PAIRS pairs of the same build: every failed gate is a false alarm.
#  2. SLOW_PAIRS pairs, the new run slowed on purpose for HTTP/2 only
#     (SLOW_ONE, by default a 16Ki client stream window: h2c and h2): the
#     gate should fail and name only h2c and h2 cells.
#  3. ALL_PAIRS pairs (default SLOW_PAIRS), the new run slowed for every transport's client
#     (SLOW_ALL, by default 1Ki body reads, h1 included): a baseline that
#     moves; how many cells fail, and whether the baseline's move is one line.
# Within a pair the order of the two runs alternates; the load (uptime) is
# printed before each pair, the machine being shared, and each line ends
# with the pair's two runs' wall times.
#
#   PAIRS=20 SLOW_PAIRS=10 ALL_PAIRS=10 bench/gate.sh [RUN FLAGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to gate "$@"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
pairs=${PAIRS:-20}
slow_pairs=${SLOW_PAIRS:-10}
all_pairs=${ALL_PAIRS:-$slow_pairs}
read -r -a slow_one <<<"${SLOW_ONE:---h2-stream-window 16Ki}"
read -r -a slow_all <<<"${SLOW_ALL:---read-size 1Ki}"
base=("$@")

# run NAME FLAGS...: one run --ci into $dir/NAME; prints its results.json.
run() {
  local name=$1; shift
  local start=$EPOCHREALTIME
  "$dir/httpvs" run --ci "$@" --out "$dir/$name" >/dev/null 2>"$dir/$name.err" || { cat "$dir/$name.err" >&2; exit 1; }
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' >>"$dir/seconds"
  ls "$dir/$name"/*/results.json
}
# pair KIND I FLAGS...: a run with the script's flags and one with FLAGS
# too, in alternating order, then the gate; prints one line: exit code,
# failing cells, and the baseline lines.
pair() {
  local kind=$1 i=$2; shift 2
  local a b
  if (( i % 2 )); then a=$(run "$kind-a$i" "${base[@]}"); b=$(run "$kind-b$i" "${base[@]}" "$@")
  else b=$(run "$kind-b$i" "${base[@]}" "$@"); a=$(run "$kind-a$i" "${base[@]}"); fi
  set +e
  "$dir/httpvs" compare --fail-on changed --json "$a" "$b" >"$dir/$kind-$i.json" 2>/dev/null
  local code=$?
  "$dir/httpvs" compare "$a" "$b" >"$dir/$kind-$i.txt" 2>/dev/null
  set -e
  python3 - "$dir/$kind-$i.json" "$dir/$kind-$i.txt" "$code" "$kind" "$i" $(tail -n 2 "$dir/seconds") <<'EOF'
import json, sys
c = json.load(open(sys.argv[1]))
moved = sum(1 for l in open(sys.argv[2]) if " itself moved: " in l)
failing = [d["scenario"] + " " + d["protocol"] for d in c["gate"]["failing"]]
tested = sum(1 for d in c["cells"] if d.get("tested") == "ratio")
print(f"{sys.argv[4]} {sys.argv[5]}: exit {sys.argv[3]}; failing {len(failing)} of {tested}: {', '.join(failing) or '-'}; baseline lines {moved}; runs {' and '.join(sys.argv[6:])} s")
EOF
}

echo "httpvs run --ci $*, in pairs; httpvs compare --fail-on changed on each"
echo "slowed for HTTP/2: ${slow_one[*]}; slowed for every transport: ${slow_all[*]}"
echo
for i in $(seq "$pairs"); do
  echo "load: $(uptime | sed 's/.*load average: //')"
  pair same "$i"
done
for i in $(seq "$slow_pairs"); do
  echo "load: $(uptime | sed 's/.*load average: //')"
  pair h2slow "$i" "${slow_one[@]}"
done
for i in $(seq "$all_pairs"); do
  echo "load: $(uptime | sed 's/.*load average: //')"
  pair allslow "$i" "${slow_all[@]}"
done
echo
python3 - "$dir" "$pairs" "$slow_pairs" <<'EOF'
import glob, json, os, statistics, sys
d, pairs, slow = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def gate(kind):
    out = []
    for f in sorted(glob.glob(os.path.join(d, kind + "-*.json"))):
        c = json.load(open(f))
        out.append([x["protocol"] for x in c["gate"]["failing"]])
    return out
same = gate("same")
print(f"same build: {sum(1 for g in same if g)} of {len(same)} pairs failed the gate (false alarms; target at most 1 in 20)")
h2 = gate("h2slow")
named = sum(1 for g in h2 if g and all(p in ("h2c", "h2") for p in g))
print(f"HTTP/2 slowed: {sum(1 for g in h2 if g)} of {len(h2)} pairs failed; {named} named only h2c and h2 cells (target at least 9 in 10)")
al = gate("allslow")
print(f"every transport slowed: {sum(1 for g in al if not g)} of {len(al)} pairs failed no cell; cells failed per pair: {[len(g) for g in al]}")
secs = [float(x) for x in open(os.path.join(d, "seconds"))]
print(f"run --ci wall time: median {statistics.median(secs):.0f} s, longest {max(secs):.0f} s, of {len(secs)} runs (target about 30 s)")
EOF
