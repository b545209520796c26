#!/usr/bin/env bash
# What the server's response floor (transport.MinDataRate) costs an h3
# download: 64 MiB GETs with the floor on (the stream takes each response
# in counted 64 KiB pieces) and off, interleaved (each round runs both
# back to back, on first in odd rounds and off first in even ones),
# medians and the ratio on/off. The aim: within 5%.
#
#   bench/floor.sh [ROUNDS]     default 6
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to floor "$@"
COUNT=${1:-6}
case $COUNT in '' | *[!0-9]*) echo "bench/floor.sh: ROUNDS $COUNT: want a count, e.g. 6" >&2; exit 2 ;; esac
out=$(mktemp)
bin=$(mktemp)
trap 'rm -f "$out" "$bin"' EXIT
go test -c -o "$bin" ./transport
for r in $(seq "$COUNT"); do
	echo "round $r/$COUNT" >&2
	order="on off"
	[ $((r % 2)) -eq 1 ] || order="off on"
	for state in $order; do
		(cd transport && "$bin" -test.run '^$' -test.bench "BenchmarkFloorH3/floor=$state\$" -test.benchtime 2s) >>"$out"
	done
done
awk '
	/^BenchmarkFloorH3\// {
		split($1, parts, "/"); state = parts[2]; sub(/-[0-9]+$/, "", state)
		for (i = 1; i <= NF; i++) if ($i == "MB/s") v = $(i - 1)
		vals[state] = vals[state] " " v
	}
	function median(list,   a, n, i, j, t) {
		n = split(list, a, " ")
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	END {
		on = median(vals["floor=on"]); off = median(vals["floor=off"])
		printf "%-6s %14s %14s %8s\n", "proto", "on MB/s", "off MB/s", "on/off"
		printf "%-6s %14.0f %14.0f %7.3fx\n", "h3", on, off, on / off
		printf "rounds (on): %s\nrounds (off): %s\n", vals["floor=on"], vals["floor=off"]
	}
' "$out"
