#!/usr/bin/env bash
# How long `httpvs run --quick` takes: RUNS runs back to back, each one's
# wall time, CPU (user + system) and the load average before it, then the
# median. The figure docs/run.md and --quick's help state comes from here.
#
#   bench/quick.sh [RUNS] [extra httpvs run flags...]     default RUNS: 3
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to quick "$@"
RUNS=${1:-3}
shift $(( $# > 0 ? 1 : 0 )) || true
bin=$(mktemp -d)/httpvs
go build -o "$bin" ./cmd/httpvs
times=()
for i in $(seq "$RUNS"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  start=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$bin.cpu" "$bin" run --quick --no-files "$@" >/dev/null 2>"$bin.err" || { cat "$bin.err" >&2; exit 1; }
  took=$(python3 -c "print(f'{$(date +%s.%N) - $start:.1f}')")
  cpu=$(awk '{printf "%.1f", $1 + $2}' "$bin.cpu")
  times+=("$took")
  echo "run $i: ${took} s wall, ${cpu} s CPU of httpvs and its child, load average ${load} before"
done
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print "median: " a[int((NR+1)/2)] " s of " NR " runs"}'
