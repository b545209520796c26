#!/usr/bin/env bash
# The flake record: the README's test command N times back to back under
# CI-like load (two `yes >/dev/null` loops beside it), every failing test
# listed with its package, run and first lines of output, written to
# docs/measurements/flakes-<date and time>.md (the date, commit, machine, load and
# commands at its head). Each run's per-package times are listed too.
#
#   bench/flakes.sh [N [PACKAGES...]]   default N: 5, PACKAGES: ./...
#
# LOOPS=0 runs it with no `yes` loops beside it: the suite's time on a
# quiet machine (LOOPS=N for N loops; 2 by default). SHORT=1 runs the
# edit loop's command instead (go test -short -count=1).
#
# The cause of each failure is for the reader to write beside it; the
# script records what failed and what it printed. Exit status: 0 when no
# run failed, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-5}
shift || true
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./...)
case $N in '' | *[!0-9]*) echo "bench/flakes.sh: N $N: want a count of runs, e.g. 5" >&2; exit 2 ;; esac
command -v python3 >/dev/null || { echo "bench/flakes.sh: python3 is needed" >&2; exit 1; }

dir=$(mktemp -d)
loops=()
cleanup() {
  for p in "${loops[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$dir"
}
trap cleanup EXIT
LOOPS=${LOOPS:-2}
case $LOOPS in '' | *[!0-9]*) echo "bench/flakes.sh: LOOPS $LOOPS: want a count of yes loops, e.g. 2 or 0" >&2; exit 2 ;; esac
for _ in $(seq "$LOOPS"); do
  yes >/dev/null &
  loops+=($!)
done

cmd=(go test -race -count=1 -timeout 30m -json "${pkgs[@]}")
[ "${SHORT:-0}" = 1 ] && cmd=(go test -short -count=1 -timeout 30m -json "${pkgs[@]}")
failed=0
for i in $(seq "$N"); do
  echo "bench/flakes.sh: run $i of $N: ${cmd[*]}" >&2
  start=$(date +%s)
  if "${cmd[@]}" >"$dir/run-$i.json" 2>"$dir/run-$i.stderr"; then :; else failed=$((failed + 1)); fi
  echo $(($(date +%s) - start)) >"$dir/run-$i.seconds"
  cat /proc/loadavg >"$dir/run-$i.load"
done

out="docs/measurements/flakes-$(date -u +%Y-%m-%dT%H%MZ).md"
mkdir -p docs/measurements
python3 - "$dir" "$N" "${cmd[*]}" "$N ${pkgs[*]}" "$LOOPS" >"$out" <<'EOF'
import json, os, subprocess, sys
dir, n, cmd, args, loops = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
def sh(*a):
    return subprocess.run(a, capture_output=True, text=True).stdout.strip()
commit = sh("git", "rev-parse", "--short", "HEAD")
dirty = "" if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", ".", ":!docs/measurements"]).returncode == 0 else " (with uncommitted changes)"
cpu = next((l.split(": ", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
print(f"# Flake record, {sh('date', '-u', '+%Y-%m-%dT%H%MZ')}\n")
print(f"- commit: {commit}{dirty}")
print(f"- machine: {os.cpu_count()} cores, {cpu}, {sh('uname', '-sr')}, {sh('go', 'env', 'GOVERSION')}")
beside = f"beside {loops} `yes >/dev/null` loops" if loops else "with nothing else running (LOOPS=0)"
env = ("LOOPS=0 " if not loops else "") + ("SHORT=1 " if "-short" in cmd else "")
print(f"- command: {env}bench/flakes.sh {args} (each run: `{cmd}`, {beside})\n")
failures = []
for i in range(1, n + 1):
    outputs, times, status = {}, {}, {}
    for line in open(f"{dir}/run-{i}.json", errors="replace"):
        try:
            e = json.loads(line)
        except ValueError:
            continue
        key = (e.get("Package", ""), e.get("Test", ""))
        if e.get("Action") == "output":
            outputs.setdefault(key, []).append(e.get("Output", ""))
        elif e.get("Action") in ("pass", "fail", "skip"):
            status[key] = e["Action"]
            if not key[1]:
                times[key[0]] = e.get("Elapsed", 0)
    secs = open(f"{dir}/run-{i}.seconds").read().strip()
    load = open(f"{dir}/run-{i}.load").read().split()[:3]
    bad = [k for k, s in status.items() if s == "fail" and k[1] and not any(o[1].startswith(k[1] + "/") and status.get(o) == "fail" for o in status)]
    bad += [k for k, s in status.items() if s == "fail" and not k[1] and not any(b[0] == k[0] for b in bad)]
    stderr = open(f"{dir}/run-{i}.stderr", errors="replace").read().strip()
    print(f"## Run {i}: {secs} s, {len(bad)} failing, load average {' '.join(load)} at its end\n")
    slow = sorted(times.items(), key=lambda kv: -kv[1])
    print("    " + "\n    ".join(f"{p}  {t:.1f} s  {status.get((p, ''), '?')}" for p, t in slow) + "\n")
    for pkg, test in bad:
        lines = [l.rstrip("\n") for l in outputs.get((pkg, test), []) if l.strip()]
        failures.append((i, pkg, test))
        print(f"- **{pkg} {test or '(package)'}**, cause: to be written by the reader\n")
        print("    " + "\n    ".join(lines[-25:]) + "\n")
    if stderr:
        print("    stderr: " + "\n    ".join(stderr.splitlines()[-10:]) + "\n")
print(f"## Summary\n\n{len(failures)} failing tests in {n} runs" + (": " + "; ".join(f"run {i} {p} {t}" for i, p, t in failures) if failures else "") + ".")
EOF
echo "bench/flakes.sh: $failed of $N runs failed; recorded in $out" >&2
[ "$failed" -eq 0 ]
