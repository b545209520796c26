#!/usr/bin/env bash
# compare against itself: two runs of one build, back to back, then
# httpvs compare A B. Nothing changed between them but the machine, so
# every cell flagged significant is a false alarm; the count is printed
# last (the aim: at most 2 of the cells).
#
#   bench/compare.sh [RUN FLAGS...]     default: a default run
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to compare "$@"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/httpvs" ./cmd/httpvs
echo "httpvs run ${*:-(its defaults)}, twice; then httpvs compare"
echo
for run in a b; do
  "$dir/httpvs" run "$@" --out "$dir/$run" >/dev/null 2>"$dir/$run.err" || { cat "$dir/$run.err" >&2; exit 1; }
done
"$dir/httpvs" compare "$dir"/a/*/results.json "$dir"/b/*/results.json | tee "$dir/compare.txt"
echo
flagged=$(awk 'NR > 1 && $0 !~ /~/ && $(NF-1) ~ /^[0-9.]+$/ {n++} END {print n+0}' "$dir/compare.txt")
cells=$(awk 'NR > 1 && $(NF-1) ~ /^[0-9.]+$/ {n++} END {print n+0}' "$dir/compare.txt")
echo "flagged significant: $flagged of $cells cells tested (two runs of one build: each one a false alarm)"
