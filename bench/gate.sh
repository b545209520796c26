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
#     (SLOW_ALL, by default 1Ki body reads, h1 included): a knob that moves
#     every transport, each by its own amount; how many cells fail, and
#     whether the baseline's move is one line.
#  4. MACHINE_PAIRS pairs (default 0) for each of MACHINES (default
#     "none cpus quota hog"), taking turns, the new run on a slower machine,
#     as one CI runner differs from the next, the build and flags the same:
#       none   this machine: the control, same-build pairs at the same load;
#       cpus   confined to the first core (taskset): a runner with fewer cores;
#       quota  every process of the run in a cgroup allowed half the
#              machine's CPU time in 2 ms periods: a slower CPU, all cores;
#       hog    beside one busy loop a core: a runner shared with neighbours;
#       h2knob this machine, the new run slowed for HTTP/2 (SLOW_ONE): the
#              positive control, that the gate can still fail at that load.
#     The target: the baseline moving alone fails no cell and is one line.
#     --fail-on changed is two-sided, so each pair read the other way round
#     is the same gate for a faster runner.
# MARGIN_RUNS=N (default 0) first makes N runs of the build alone and
# estimates from them the between-run spread compare's test allows for
# (go run ./bench/betweenruns), which the pairs after it are
# gated with (compare --margin); MARGIN_WRITE=1 also writes it to
# internal/analysis/betweenruns.json, the margin built in. Without them
# the pairs are gated with the built-in one. Each pair is gated without a
# margin too (--margin none): what the rounds alone would have failed;
# the summary says how often a same-build cell's own test, before the
# correction for the cells, called a change at 5% either way.
# Within a pair the order of the two runs alternates; the load (uptime) is
# printed before each pair, the machine being shared, and each line ends
# with the pair's two runs' wall times.
#
#   PAIRS=20 SLOW_PAIRS=10 ALL_PAIRS=10 bench/gate.sh [RUN FLAGS...]
#   PAIRS=0 SLOW_PAIRS=0 ALL_PAIRS=0 MACHINE_PAIRS=5 bench/gate.sh
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to gate "$@"
dir=$(mktemp -d)
hogs=() cgroup=/sys/fs/cgroup/cpu/httpvs-gate-$$
cleanup() {
  hog_off
  if [ -d "$cgroup" ]; then rmdir "$cgroup"; fi
  rm -rf "$dir"
}
trap cleanup EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
go build -o "$dir/betweenruns" ./bench/betweenruns
margin_runs=${MARGIN_RUNS:-0}
margin=()
pairs=${PAIRS:-20}
slow_pairs=${SLOW_PAIRS:-10}
all_pairs=${ALL_PAIRS:-$slow_pairs}
machine_pairs=${MACHINE_PAIRS:-0}
read -r -a machines <<<"${MACHINES:-none cpus quota hog}"
read -r -a slow_one <<<"${SLOW_ONE:---h2-stream-window 16Ki}"
read -r -a slow_all <<<"${SLOW_ALL:---read-size 1Ki}"
base=("$@")

# hog_on starts one busy loop a core, hog_off stops them (by their ids).
hog_on() {
  for _ in $(seq "$(nproc)"); do (while :; do :; done) >/dev/null 2>&1 & hogs+=($!); done
}
hog_off() {
  local p
  for p in "${hogs[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  hogs=()
}
# in_cgroup CMD...: CMD in the cgroup made for the quota machine.
in_cgroup() {
  echo "$BASHPID" >"$cgroup/cgroup.procs"
  exec "$@"
}
# machine MODE: what the new run's machine is (see 4. above); sets wrap,
# the command a run goes through, and starts the hogs. machine "" is back
# to this machine.
wrap=()
machine() {
  hog_off
  wrap=()
  case $1 in
    "" | none | h2knob) ;;
    cpus) wrap=(taskset -c 0) ;;
    quota)
      [ -d "$cgroup" ] || { mkdir "$cgroup"; echo 2000 >"$cgroup/cpu.cfs_period_us"; echo $(( $(nproc) * 1000 )) >"$cgroup/cpu.cfs_quota_us"; }
      wrap=(in_cgroup) ;;
    hog) hog_on ;;
    *) echo "gate.sh: unknown machine $1 (none, cpus, quota or hog)" >&2; exit 2 ;;
  esac
}
# run NAME FLAGS...: one run --ci into $dir/NAME; prints its results.json.
run() {
  local name=$1; shift
  local start=$EPOCHREALTIME
  ( "${wrap[@]}" "$dir/httpvs" run --ci "$@" --out "$dir/$name" ) >/dev/null 2>"$dir/$name.err" || { cat "$dir/$name.err" >&2; exit 1; }
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f\n", b - a }' >>"$dir/seconds"
  ls "$dir/$name"/*/results.json
}
# pair KIND I FLAGS...: a run with the script's flags and one with FLAGS
# too, on the machine MODE says (machine), in alternating order, then the
# gate; prints one line: exit code, failing cells with their ratios'
# changes, the baseline lines, the baseline's own median change, and the
# gate's exit code with the runs' roles swapped (a faster new run).
mode=""
pair() {
  local kind=$1 i=$2; shift 2
  local a b
  if (( i % 2 )); then a=$(run "$kind-a$i" "${base[@]}"); machine "$mode"; b=$(run "$kind-b$i" "${base[@]}" "$@"); machine ""
  else machine "$mode"; b=$(run "$kind-b$i" "${base[@]}" "$@"); machine ""; a=$(run "$kind-a$i" "${base[@]}"); fi
  set +e
  "$dir/httpvs" compare --fail-on changed "${margin[@]}" --json "$a" "$b" >"$dir/$kind-$i.json" 2>/dev/null
  local code=$?
  "$dir/httpvs" compare --fail-on changed "${margin[@]}" "$b" "$a" >/dev/null 2>&1
  local rev=$?
  "$dir/httpvs" compare "${margin[@]}" "$a" "$b" >"$dir/$kind-$i.txt" 2>/dev/null
  "$dir/httpvs" compare --fail-on changed --margin none --json "$a" "$b" >"$dir/$kind-$i.none" 2>/dev/null
  set -e
  python3 - "$dir/$kind-$i.json" "$dir/$kind-$i.txt" "$code" "$kind" "$i" "$rev" "$dir/$kind-$i.none" $(tail -n 2 "$dir/seconds") <<'EOF'
import json, statistics, sys
c = json.load(open(sys.argv[1]))
moved = sum(1 for l in open(sys.argv[2]) if " itself moved: " in l)
failing = [f'{d["scenario"]} {d["protocol"]} {d.get("ratio_change", 0):+.0%} [{d.get("ratio_change_low", 0):+.0%}, {d.get("ratio_change_high", 0):+.0%}]' for d in c["gate"]["failing"]]
none = [f'{d["scenario"]} {d["protocol"]} {d.get("ratio_change", 0):+.0%}' for d in json.load(open(sys.argv[7]))["gate"]["failing"]]
tested = sum(1 for d in c["cells"] if d.get("tested") == "ratio")
own = {}
for d in c["cells"]:
    if d.get("baseline") and d.get("tested"):
        own.setdefault(d["metric"], []).append(d["change"])
own = ", ".join(f"{m} {statistics.median(v):+.0%} median of {len(v)}" for m, v in sorted(own.items()))
print(f"{sys.argv[4]} {sys.argv[5]}: exit {sys.argv[3]}; failing {len(failing)} of {tested}: {', '.join(failing) or '-'}; without the margin {len(none)}: {', '.join(none) or '-'}; baseline lines {moved} (its own change: {own}); exit {sys.argv[6]} read the other way; runs {' and '.join(sys.argv[8:])} s")
EOF
}

echo "httpvs run --ci $*, in pairs; httpvs compare --fail-on changed on each"
echo "slowed for HTTP/2: ${slow_one[*]}; slowed for every transport: ${slow_all[*]}"
echo
if (( margin_runs >= 2 )); then
  files=()
  for i in $(seq "$margin_runs"); do
    echo "load: $(uptime | sed 's/.*load average: //')"
    files+=("$(run "margin-$i" "${base[@]}")")
  done
  "$dir/betweenruns" "${files[@]}" >"$dir/margin.json"
  margin=(--margin "$dir/margin.json")
  if [ "${MARGIN_WRITE:-}" = 1 ]; then cp "$dir/margin.json" internal/analysis/betweenruns.json; fi
  python3 - "$dir/margin.json" <<'EOF'
import json, math, sys
m = json.load(open(sys.argv[1]))
print(f"margin from {m['source']}: " + "; ".join(f"{k['kind']} sd {k['sd']:.3f} (±{math.exp(k['sd']) - 1:.0%}, {k['df']:.0f} df, {k['cells']} cells)" for k in m["kinds"]))
EOF
fi
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
# The machines take turns, pair by pair, so that the load of the
# machine's other work falls on each alike; none is the control.
for i in $(seq "$machine_pairs"); do
  for m in "${machines[@]}"; do
    echo "load: $(uptime | sed 's/.*load average: //')"
    if [ "$m" = h2knob ]; then pair "$m" "$i" "${slow_one[@]}"; continue; fi
    mode=$m
    pair "$m" "$i"
    mode=""
  done
done
echo
grep -h '^margin:' "$dir"/*.txt 2>/dev/null | head -n 1 || true
python3 - "$dir" "$pairs" "$slow_pairs" "$machine_pairs" "${machines[@]}" <<'EOF'
import glob, json, os, statistics, sys
d, pairs, slow = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def gate(kind, ext=".json"):
    out = []
    for f in sorted(glob.glob(os.path.join(d, kind + "-*" + ext))):
        c = json.load(open(f))
        out.append([x["protocol"] for x in c["gate"]["failing"]])
    return out
for ext, what in ((".json", "with the margin"), (".none", "without a margin (the rounds alone)")):
    same = gate("same", ext)
    print(f"{what}: same build: {sum(1 for g in same if g)} of {len(same)} pairs failed the gate (false alarms; target at most 1 in 20)")
    h2 = gate("h2slow", ext)
    named = sum(1 for g in h2 if g and all(p in ("h2c", "h2") for p in g))
    print(f"{what}: HTTP/2 slowed: {sum(1 for g in h2 if g)} of {len(h2)} pairs failed; {named} named only h2c and h2 cells (target at least 9 in 10)")
    # How often a same-build cell's own test (before the correction for
    # the cells) calls a change at 5%: about 5% when the test's variance
    # holds the runs' spread, more when it misses some.
    n = small = 0
    for f in glob.glob(os.path.join(d, "same-*" + ext)):
        for x in json.load(open(f))["cells"]:
            if x.get("tested") == "ratio":
                n, small = n + 1, small + (x["p_raw"] < 0.05)
    if n:
        print(f"{what}: same build: {small} of {n} cells' own tests at p < 0.05 ({small / n:.1%}; about 5% if the test holds the spread between runs)")
al = gate("allslow")
print(f"every transport slowed: {sum(1 for g in al if not g)} of {len(al)} pairs failed no cell; cells failed per pair: {[len(g) for g in al]}")
# Each slower machine: the pairs that failed no cell, then the cells
# whose ratio moved most (median over the pairs) and how often each
# failed, the cells whose ratio moved the same way in every pair (by
# chance 2/2^pairs of them; the control none says how many at that
# load; named from four pairs on), and how many runs the budget paced
# (fewer first rounds).
for m in (sys.argv[5:] if int(sys.argv[4]) else []):
    g = gate(m)
    print(f"machine {m}: {sum(1 for x in g if not x)} of {len(g)} pairs failed no cell; cells failed per pair: {[len(x) for x in g]}")
    moves, fails = {}, {}
    for f in sorted(glob.glob(os.path.join(d, m + "-*.json"))):
        c = json.load(open(f))
        for x in c["cells"]:
            if x.get("tested") == "ratio":
                moves.setdefault((x["scenario"], x["protocol"]), []).append(x.get("ratio_change", 0))
        for x in c["gate"]["failing"]:
            fails[(x["scenario"], x["protocol"])] = fails.get((x["scenario"], x["protocol"]), 0) + 1
    top = sorted(moves, key=lambda k: -abs(statistics.median(moves[k])))[:8]
    print("  ratio moved most (median over pairs, failed in): " + "; ".join(f"{s} {p} {statistics.median(moves[(s, p)]):+.0%} ({fails.get((s, p), 0)})" for s, p in top))
    same = [k for k, v in moves.items() if len(v) == len(g) and (all(x > 0 for x in v) or all(x < 0 for x in v))]
    print(f"  the same way in all {len(g)} pairs: {len(same)} of {len(moves)} cells (by chance about {len(moves) * 2 / 2 ** len(g):.1f})" + (": " + ("; ".join(f"{s} {p} {statistics.median(moves[(s, p)]):+.0%}" for s, p in sorted(same)) or "-") if len(g) >= 4 else ""))
    paced = {}
    for side in "ab":
        runs = glob.glob(os.path.join(d, f"{m}-{side}*", "*", "results.json"))
        paced[side] = f"{sum(1 for r in runs if json.load(open(r))['settings'].get('paced'))} of {len(runs)}"
    print(f"  runs paced by the budget (first rounds cut): new {paced['b']}, old {paced['a']}")
secs = [float(x) for x in open(os.path.join(d, "seconds"))]
print(f"run --ci wall time: median {statistics.median(secs):.0f} s, longest {max(secs):.0f} s, of {len(secs)} runs (target about 30 s)")
EOF
