#!/usr/bin/env bash
# What httpvs's connection counters cost: 64 MiB downloads over h1 and h2c
# with the counters (I/O calls at both ends, h2c frame parsing) on and
# off, interleaved (each round runs on and off back to back), medians and
# the ratio on/off. The aim: within 5%.
#
#   bench/counters.sh [ROUNDS]     default 6
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to counters "$@"
COUNT=${1:-6}
out=$(mktemp)
bin=$(mktemp)
go test -c -o "$bin" ./internal/wire
for r in $(seq "$COUNT"); do
	echo "round $r/$COUNT" >&2
	(cd internal/wire && "$bin" -test.run '^$' -test.bench 'BenchmarkDownloadCounters' -test.benchtime 1s) >>"$out"
done
rm -f "$bin"
awk '
	/^BenchmarkDownloadCounters\// {
		split($1, parts, "/"); proto = parts[2]; state = parts[3]; sub(/-[0-9]+$/, "", state)
		for (i = 1; i <= NF; i++) if ($i == "MB/s") v = $(i - 1)
		vals[proto "," state] = vals[proto "," state] " " v
	}
	function median(list,   a, n, i, j, t) {
		n = split(list, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		printf "%-6s %14s %14s %8s\n", "proto", "on MB/s", "off MB/s", "on/off"
		split("h1 h2c", ps, " ")
		for (k = 1; k <= 2; k++) {
			p = ps[k]; on = median(vals[p ",counters=on"]); off = median(vals[p ",counters=off"])
			printf "%-6s %14.0f %14.0f %7.3fx\n", p, on, off, on / off
		}
	}
' "$out"
rm -f "$out"
