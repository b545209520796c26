#!/usr/bin/env bash
# Renders an httpvs report.html in headless Chromium, saves a screenshot and
# fails if the page logged anything to the console (errors, blocked loads).
#
#   scripts/screenshot-report.sh [REPORT.html] [OUT.png]
#
# Without REPORT.html it makes one first with `httpvs run --quick`.
# Needs Debian's chromium: apt-get install -y chromium
set -euo pipefail
cd "$(dirname "$0")/.."

report=${1:-}
out=${2:-report.png}
chrome=$(command -v chromium || command -v chromium-browser || true)
if [[ -z $chrome ]]; then
	echo "screenshot-report: chromium not found; install it with: apt-get install -y chromium" >&2
	exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -z $report ]]; then
	go run ./cmd/httpvs run --quick --out "$work/results" >/dev/null
	report=$(ls "$work"/results/*/report.html)
fi
if [[ ! -f $report ]]; then
	echo "screenshot-report: $report: no such file" >&2
	exit 2
fi
abs=$(cd "$(dirname "$report")" && pwd)/$(basename "$report")

# The flags keep Chromium off the network (the page must need none) and
# quiet; console messages are logged to stderr as INFO:CONSOLE lines.
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
	--disable-background-networking --disable-component-update --disable-sync \
	--user-data-dir="$work/profile" --enable-logging=stderr --v=0 \
	--window-size=1200,2400 --screenshot="$out" "file://$abs" 2>"$work/chrome.log" || {
	echo "screenshot-report: chromium failed:" >&2
	grep -v dbus "$work/chrome.log" | tail -5 >&2
	exit 1
}
if grep -q "CONSOLE" "$work/chrome.log"; then
	echo "screenshot-report: the page logged to the console:" >&2
	grep "CONSOLE" "$work/chrome.log" >&2
	exit 1
fi
if [[ ! -s $out ]]; then
	echo "screenshot-report: no screenshot written" >&2
	exit 1
fi
echo "screenshot-report: $report rendered with no console messages; screenshot in $out"
