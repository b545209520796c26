#!/usr/bin/env bash
# The fix checks' no-op controls, run after run: the measured check
# TestGeneratorFixSavesClientCPU (or the one named) N times, each run's
# control and fix readings at 95% and their split by order (the arm run
# before the baseline or after it), then the median control over the runs
# and how far it is off 1. Records to docs/measurements/controls-DATE.md
# with the load average beside each run.
#
#   bench/controls.sh [N [TEST]]   default N: 10, TEST: TestGeneratorFixSavesClientCPU/h3
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to controls "$@"
N=${1:-10}
TEST=${2:-TestGeneratorFixSavesClientCPU/h3}
case $N in '' | *[!0-9]*) echo "bench/controls.sh: N $N: want a count of runs, e.g. 10" >&2; exit 2 ;; esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go test -tags measured -c -o "$dir/analysis.test" ./internal/analysis
echo "go test -tags measured -run '$TEST' ./internal/analysis, $N runs, one at a time"
for i in $(seq "$N"); do
  before=$(cut -d' ' -f1-3 /proc/loadavg)
  (cd internal/analysis && "$dir/analysis.test" -test.run "$TEST" -test.v -test.count 1 >"$dir/run-$i.log" 2>&1) || true
  after=$(cut -d' ' -f1-3 /proc/loadavg)
  verdict=$(grep -E -- '^(--- |ok|FAIL|PASS)' "$dir/run-$i.log" | grep -E -- '--- (PASS|FAIL)' | head -1 | awk '{print $2}' | tr -d :)
  echo "run $i: ${verdict:-?}, load average $before before, $after after"
  grep -E 'fixmoves_test.go:[0-9]+: (control|fix|[a-z0-9-]+ \[)' "$dir/run-$i.log" | sed 's/^ *fixmoves_test.go:[0-9]*: /  /'
done
python3 - "$dir" "$N" <<'EOF'
import glob, math, re, statistics, sys
dir, n = sys.argv[1], int(sys.argv[2])
ctl = []
for i in range(1, n + 1):
    for line in open(f"{dir}/run-{i}.log"):
        m = re.search(r": control \S+: ([0-9.]+)x \[", line)
        if m:
            ctl.append(float(m.group(1)))
if ctl:
    med = statistics.median(ctl)
    print(f"controls over {len(ctl)} readings: median {med:.2f}x ({abs(math.log(med)) * 100:.1f}% off 1 in log), range {min(ctl):.2f}-{max(ctl):.2f}x")
EOF
