#!/usr/bin/env bash
# The verdict's false-call rate, measured on the default run's own
# procedure: `httpvs run` as it runs by default (every transport, the
# default scenarios, its first rounds, its added rounds, its budget), with
# an A/A column in every scenario (--aa all: h1 measured twice in the same
# rounds, one against the other), repeated until at least CELLS A/A cells
# have an interval. The A/A columns are planned exactly as the verdict
# cells: the same first look, the same rule for added rounds (to decide,
# then for precision), in the same rounds; the word is the one a verdict
# cell would print. Every A/A cell called "slower" or "faster" is a false
# call: there is no difference to find. The intervals are repeated
# confidence intervals, whose 95% holds at every look together, so at
# most 5% of them. Prints each run's A/A cells and the rate with its 95%
# interval (Wilson), overall and by kind of work (transfer, request load,
# gRPC), the A/A verdicts, where their rounds stopped, and their median
# geometric half-width (the noise floor).
#
#   bench/aa.sh [CELLS [RUN FLAGS...]]     default CELLS: 200
#   e.g. bench/aa.sh 200 --pin             the same, pinned
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to aa "$@"
CELLS=${1:-200}
shift || true
command -v python3 >/dev/null || { echo "bench/aa.sh: python3 is needed" >&2; exit 1; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine moves the spread, not the rate an honest interval keeps)"
n=0 i=0
while [ "$n" -lt "$CELLS" ]; do
  i=$((i + 1))
  (cd "$dir" && ./httpvs run --aa all --no-files --json "$@" >"run$i.json" 2>"run$i.err") ||
    { echo "bench/aa.sh: run $i failed: $(tail -3 "$dir/run$i.err")" >&2; exit 1; }
  got=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(sum(1 for c in r.get("aa") or [] if (c.get("vs_h1") or {}).get("pairs",0) >= 2))' "$dir/run$i.json")
  n=$((n + got))
  echo "run $i: $got A/A cells with an interval ($n so far)" >&2
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$dir" "$i" <<'PY'
import json, math, statistics as st, sys
from datetime import datetime
d, runs = sys.argv[1], int(sys.argv[2])
cells, calls, halves, rounds, verdicts, took, kinds = 0, [], [], [], {}, [], {}
def kind(c):
    # verdict.KindOf's kinds of work.
    if c.get("metric") == "bytes_per_second":
        return "transfer"
    if c.get("metric") == "seconds":
        return "timed"
    return "gRPC" if c["scenario"].split(":")[0].startswith("grpc-") else "request load"
def wilson(k, n):
    z = 1.959964
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half
for i in range(1, runs + 1):
    r = json.load(open(f"{d}/run{i}.json"))
    s = r["settings"]
    line = []
    for c in r.get("aa") or []:
        iv = c.get("vs_h1") or {}
        if iv.get("pairs", 0) < 2:
            continue
        cells += 1
        rounds.append(iv["pairs"])
        halves.append(math.sqrt(iv["high"] / iv["low"]) - 1)
        v = iv.get("verdict", "")
        verdicts[v] = verdicts.get(v, 0) + 1
        k = kind(c)
        kinds.setdefault(k, [0, 0])[0] += 1
        if v in ("slower", "faster"):
            kinds[k][1] += 1
            calls.append(f'{c["scenario"]} {iv["ratio"]:.3f}x [{iv["low"]:.3f}, {iv["high"]:.3f}] {v}')
        line.append(f'{c["scenario"]} {iv["ratio"]:.2f}x')
    pin = "pinned" if s.get("pin") else "unpinned"
    secs = (datetime.fromisoformat(r["finished"].replace("Z", "+00:00")) - datetime.fromisoformat(r["started"].replace("Z", "+00:00"))).total_seconds()
    took.append(secs)
    print(f"run {i} ({pin}, seed {s.get('seed')}, {s.get('extra_rounds')} rounds added, {secs:.0f} s, rounds: {s.get('rounds')}): " + ", ".join(line))
k, n = len(calls), cells
p = k / n if n else float("nan")
z = 1.959964
centre = (p + z * z / (2 * n)) / (1 + z * z / n)
half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
print(f"\nA/A cells: {n} over {runs} runs ({st.median(took):.0f} s a run, median); rounds per cell median {st.median(rounds)} (min {min(rounds)}, max {max(rounds)})")
print("A/A verdicts: " + ", ".join(f"{v or 'none'} {k}" for v, k in sorted(verdicts.items())))
print(f"false calls (slower or faster where there is no difference): {k} of {n} = {100*p:.1f}% "
      f"[{100*(centre-half):.1f}%, {100*(centre+half):.1f}%] (95% Wilson); nominal 5%: {'within' if p <= 0.05 else 'ABOVE'}")
for kd, (m, f) in sorted(kinds.items()):
    lo, hi = wilson(f, m)
    print(f"  {kd}: {f} of {m} = {100*f/m:.1f}% [{100*lo:.1f}%, {100*hi:.1f}%]")
for c in calls:
    print("  " + c)
print(f"A/A geometric half-width (the noise floor a cell resolves): median ±{100*st.median(halves):.1f}%, "
      f"90th percentile ±{100*sorted(halves)[int(0.9*(len(halves)-1))]:.1f}%")
# The warm-up round's check: in every cell with four or more paired
# rounds, the first measured round's log ratio to h1 less the mean of the
# later rounds'. A warm-up too short to warm leaves the first round apart
# (it sat 0.45 standard deviations low before rounds had a warm-up).
dev = []
for i in range(1, runs + 1):
    r = json.load(open(f"{d}/run{i}.json"))
    base = {c["scenario"]: {x["round"]: x["value"] for x in c.get("repetitions") or [] if x.get("value", 0) > 0}
            for c in r["cells"] if c["protocol"] == r["settings"].get("baseline", "h1")}
    for c in r["cells"] + (r.get("aa") or []):
        b = base.get(c["scenario"])
        if b is None or c["protocol"] == r["settings"].get("baseline", "h1"):
            continue
        logs = [math.log(x["value"] / b[x["round"]]) for x in sorted(c.get("repetitions") or [], key=lambda x: x["round"])
                if x.get("value", 0) > 0 and x["round"] in b]
        if len(logs) >= 4:
            dev.append(logs[0] - st.mean(logs[1:]))
if len(dev) > 1:
    print(f"first measured round against the later ones, log ratio to h1: mean {st.mean(dev):+.3f} "
          f"(standard error {st.stdev(dev)/math.sqrt(len(dev)):.3f}) over {len(dev)} cells; near 0 when the warm-up round warms")
PY
