#!/usr/bin/env bash
# Soak: 1,000 concurrent h1 connections, then 1,000 concurrent h2 streams
# (one TLS connection), each for SECONDS, against one `httpvs serve` on
# loopback. Passes when both runs have zero errors, the server's goroutines
# and file descriptors return to their baseline afterwards, and prints the
# server's peak RSS.
#
#   bench/soak.sh [SECONDS]     default 120
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to soak "$@"
SECS=${1:-120}
for tool in curl python3; do
	command -v $tool >/dev/null || { echo "bench/soak.sh: $tool is needed" >&2; exit 1; }
done

work=$(mktemp -d)
srv=
cleanup() {
	[[ -n $srv ]] && kill "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/httpvs" ./cmd/httpvs
"$work/httpvs" serve --listen 127.0.0.1:0 --tls-listen 127.0.0.1:0 --grpc-listen "" --no-h3 \
	--h2-max-streams 1000 >"$work/banner" 2>&1 &
srv=$!
for _ in $(seq 100); do grep -q "h1-tls, h2" "$work/banner" && break; sleep 0.1; done
plain=$(sed -n 's#.*h1, h2c *\(http://[0-9.:]*\).*#\1#p' "$work/banner")
tls=$(sed -n 's#.*h1-tls, h2 *\(https://[0-9.:]*\).*#\1#p' "$work/banner")
[[ -n $plain && -n $tls ]] || { echo "soak: httpvs serve did not start:" >&2; cat "$work/banner" >&2; exit 1; }

goroutines() { curl -s "$plain/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["process"]["goroutines"])'; }
fds() { ls "/proc/$srv/fd" | wc -l; }
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$srv/status"; }

sleep 0.5
base_g=$(goroutines)
base_fd=$(fds)
echo "soak: server pid $srv, baseline $base_g goroutines, $base_fd fds, RSS $(( $(rss_kb) / 1024 )) MiB"

peak=0
watch_rss() {
	while kill -0 "$srv" 2>/dev/null; do
		r=$(rss_kb)
		(( r > peak )) && peak=$r && echo "$peak" >"$work/peak"
		sleep 1
	done
}
watch_rss &
watcher=$!

status=0
run() {
	local name=$1
	shift
	echo "soak: $name for ${SECS}s"
	"$work/httpvs" load "$@" -d "${SECS}s" --timeout 30s --json >"$work/$name.json" || true
	python3 - "$work/$name.json" "$name" <<'PY' || status=1
import json, sys
d = json.load(open(sys.argv[1]))
e = d["errors"]
print(f"  {sys.argv[2]}: {d['requests']} requests, {d['requests_per_second']:.0f} req/s, "
      f"{d['connections']} connections, engine {d['engine']}, errors {e['total']} "
      f"(p99 {d['latency_seconds']['p99']*1000:.1f} ms)")
if e["total"] != 0 or d["requests"] == 0:
    print(f"  FAILED: {e}; first error: {d.get('first_error', '')}")
    sys.exit(1)
PY
	# Back to baseline once the client's connections are closed.
	local g fd
	for _ in $(seq 50); do
		g=$(goroutines)
		fd=$(fds)
		(( g <= base_g + 2 && fd <= base_fd )) && break
		sleep 0.2
	done
	echo "  after: $g goroutines (baseline $base_g), $fd fds (baseline $base_fd)"
	if (( g > base_g + 2 || fd > base_fd )); then
		echo "  FAILED: the server did not return to its baseline"
		status=1
	fi
}
run h1-1000-connections "$plain/small" -p h1 -c 1000
run h2-1000-streams "$tls/small" -p h2 -k -c 1 -m 1000

kill "$watcher" 2>/dev/null || true
echo "soak: server peak RSS $(( $(cat "$work/peak" 2>/dev/null || echo 0) / 1024 )) MiB"
if (( status == 0 )); then echo "soak: passed"; else echo "soak: FAILED"; fi
exit $status
