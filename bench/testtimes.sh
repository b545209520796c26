#!/usr/bin/env bash
# Where the test suite's time goes: each package given, one at a time,
# with the README's flags (race: go test -race -count=1) or the edit
# loop's (short: go test -short -count=1), built first so that the figure
# is the tests' run: the package's time as go test reports it, the wall,
# user and system time of the go test command (the test binary and what
# it waited for), the load average before and after, and its slowest
# tests (parallel ones marked P: they overlap). Recorded in
# docs/measurements/testtimes-DATE.md.
#
#   bench/testtimes.sh race|short PACKAGES...
#
# The machine's other load moves every figure: compare a package before
# and after a change back to back, and read the load averages beside.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
mode=${1:-}
shift || true
case $mode in
race) flags=(-race -count=1 -timeout 30m) ;;
short) flags=(-short -count=1 -timeout 30m) ;;
*) echo "bench/testtimes.sh: mode \"$mode\": want race or short, then packages" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || { echo "bench/testtimes.sh: name the packages, e.g. ./internal/cli ./server" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench/testtimes.sh: python3 is needed" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "bench/testtimes.sh: /usr/bin/time is needed" >&2; exit 1; }
record_to testtimes "$mode" "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
for p in "$@"; do
  go test "${flags[@]}" -run '^$' "$p" >/dev/null
  load0=$(cut -d' ' -f1-3 /proc/loadavg)
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" go test "${flags[@]}" -json "$p" >"$tmp/json" 2>"$tmp/err" || status=1
  load1=$(cut -d' ' -f1-3 /proc/loadavg)
  python3 - "$tmp/json" "$tmp/time" "$p" "go test ${flags[*]} $p" "$load0" "$load1" <<'EOF'
import json, sys
path, timef, pkg, cmd, load0, load1 = sys.argv[1:]
wall, user, sys_ = open(timef).read().split()[-3:]
pkgres, tests, paused = None, {}, set()
for line in open(path, errors="replace"):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    t, a = e.get("Test"), e.get("Action")
    if t and a == "pause":
        paused.add(t)
    if a in ("pass", "fail", "skip"):
        if not t:
            pkgres = (a, e.get("Elapsed", 0))
        elif "/" not in t:
            tests[t] = (e.get("Elapsed", 0), a)
a, el = pkgres or ("?", 0)
print(f"{pkg}: {a} in {el:.1f} s (go test); {float(wall):.1f} s wall, {float(user):.1f} s user, {float(sys_):.1f} s system; load average {load0} before, {load1} after")
print(f"  command: {cmd}")
for name, (secs, act) in sorted(tests.items(), key=lambda kv: -kv[1][0])[:8]:
    print(f"  {secs:6.1f} s {'P' if name in paused else ' '} {name}{'' if act == 'pass' else ' (' + act + ')'}")
EOF
done
exit $status
