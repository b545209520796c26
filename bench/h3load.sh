#!/usr/bin/env bash
# HTTP/3 load at oha's cost: oha against `httpvs load -p h3` (the fast
# engine), GET /small from one Caddy on loopback, ten QUIC connections of
# ten streams each (-c 10 -p 10 / -c 10 -m 10), each round in a rotated
# order so that load from other processes lands on every arm alike. Per
# run: the 2xx responses a second, the client's whole-process CPU (user +
# system, getrusage through /usr/bin/time) per response, and Caddy's CPU
# per response over the same run (/proc/PID/stat), since a client can look
# cheaper by leaving work to the server. Prints every round, the medians
# and the ratios httpvs/oha; the load average is taken around each run.
# The aims: httpvs's CPU per request at most 1.0x oha's, at a rate at
# least 0.95x oha's.
# Then the same arms at one equal rate, PAIRS runs each (oha -q RATE,
# httpvs load --rate RATE: an open loop), the order alternating (rotated
# with more arms), so that
# CPU per request is compared at the same work rate: a client's cost per
# request moves with its rate (fewer requests share each datagram, each
# wake-up), and a closed loop's rates differ. RATE is H3LOAD_RATE, else
# half the lowest closed-loop median rate, in hundreds (with ROUNDS 0,
# H3LOAD_RATE is needed): oha's open loop falls short of rates well under
# its closed loop's, and runs that fall short of RATE are pointed out.
# Prints each run, each side's medians, and the ratios httpvs/oha with
# their spread over the pairs.
# H3LOAD_BASE="COMMIT..." adds httpvs built at each COMMIT (arm
# "at-COMMIT") as another arm, to show what a change moved.
# H3LOAD_PROCS=N adds httpvs run with GOMAXPROCS=N (arm "httpvs-pN"):
# Go's scheduler, with a processor idle, wakes a thread for each goroutine
# a hand-off readies, and this shows what that costs here.
# H3LOAD_SYSCALLS=1 runs every client under `perf stat` and adds its
# sendmsg, recvmmsg and futex calls and its context switches per
# request: counts that the machine's load moves less than it moves time.
#
#   bench/h3load.sh [SECONDS] [ROUNDS] [PAIRS]   defaults: 5 5 5
# Needs caddy (apt-get install caddy), python3, /usr/bin/time and oha,
# which need_oha (bench/lib.sh) installs with cargo when it is missing.
# oha over HTTP/3 may stay up to ~30 s after its run (the QUIC idle
# timeout; its requests end at -z's deadline): its rate is over SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
SECS=${1:-5}
ROUNDS=${2:-5}
PAIRS=${3:-5}
rate=${H3LOAD_RATE:-}
case "$SECS$ROUNDS$PAIRS$rate" in
  *[!0-9]*) echo "bench/h3load.sh: SECONDS, ROUNDS, PAIRS and H3LOAD_RATE are whole numbers" >&2; exit 2 ;;
esac
if [ "$ROUNDS" = 0 ] && [ -z "$rate" ] && [ "$PAIRS" != 0 ]; then
  echo "bench/h3load.sh: with ROUNDS 0, set H3LOAD_RATE for the equal-rate pairs" >&2; exit 2
fi
case "${H3LOAD_PROCS:-1}" in
  *[!0-9]* | 0) echo "bench/h3load.sh: H3LOAD_PROCS is a count of processors, 1 or more" >&2; exit 2 ;;
esac
record_to h3load "$@"
for tool in caddy python3 /usr/bin/time; do
  command -v $tool >/dev/null || { echo "bench/h3load.sh: $tool is needed (apt-get install caddy python3 time)" >&2; exit 1; }
done
if ! need_oha; then
  echo "no HTTP/3 peer: oha could not be installed ($oha_missing)"
  exit 1
fi
perf_events=
if [ -n "${H3LOAD_SYSCALLS:-}" ]; then
  perf_events=task-clock,context-switches,syscalls:sys_enter_sendmsg,syscalls:sys_enter_recvmmsg,syscalls:sys_enter_futex
  perf stat -x, -e "$perf_events" -o /dev/null true 2>/dev/null ||
    { echo "bench/h3load.sh: H3LOAD_SYSCALLS needs perf with syscall tracepoints (root)" >&2; exit 1; }
fi

peer_setup
arms="oha httpvs"
[ -z "${H3LOAD_PROCS:-}" ] || arms+=" httpvs-p$H3LOAD_PROCS"
for rev in ${H3LOAD_BASE:-}; do
  short=$(git rev-parse --short "$rev")
  git worktree add -q --detach "$tmp/src-$short" "$rev"
  (cd "$tmp/src-$short" && go build -o "$tmp/httpvs-at-$short" ./cmd/httpvs)
  git worktree remove --force "$tmp/src-$short"
  arms+=" at-$short"
  echo "at-$short: httpvs load built at $short"
done
start_peer caddy 3
url=$(peer_url caddy h3)/small
server_pids=$(python3 -c 'import json,sys; print(*json.loads(open(sys.argv[1]).readline())["pids"])' "$tmp/caddy.json")
echo "server: caddy $(caddy version | awk '{print $1}') at $url; oha $(oha --version | awk '{print $2}'); $SECS s a run, $ROUNDS rounds"

hz=$(getconf CLK_TCK)
# server_cpu: the server's user + system seconds so far.
server_cpu() { for p in $server_pids; do awk '{print $14 + $15}' "/proc/$p/stat"; done | awk -v hz="$hz" '{s += $1} END {print s / hz}'; }
# timed CMD...: CMD under /usr/bin/time (and perf stat with
# H3LOAD_SYSCALLS), its output in $tmp/out.
timed() {
  if [ -n "$perf_events" ]; then
    /usr/bin/time -f '%U %S' -o "$tmp/time" perf stat -x, -e "$perf_events" -o "$tmp/perf" -- "$@" >"$tmp/out"
  else
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$tmp/out"
  fi
}
# one ARM [RATE]: one run, a closed loop or at RATE requests a second;
# appends "ARM req/s cpu-per-request server-cpu-per-request failures
# [perf counts per request]" to $results.
one() {
  local arm=$1 s0 s1 oha_rate=() httpvs_rate=()
  if [ -n "${2:-}" ]; then oha_rate=(-q "$2"); httpvs_rate=(--rate "$2"); fi
  s0=$(server_cpu)
  case $arm in
    oha) timed oha --no-tui --output-format json --http-version 3 --insecure -c 10 -p 10 -z "${SECS}s" "${oha_rate[@]}" "$url" ;;
    httpvs) timed "$bin" load "$url" -p h3 -k -c 10 -m 10 -d "${SECS}s" "${httpvs_rate[@]}" --json ;;
    httpvs-p*) GOMAXPROCS=${arm#httpvs-p} timed "$bin" load "$url" -p h3 -k -c 10 -m 10 -d "${SECS}s" "${httpvs_rate[@]}" --json ;;
    at-*) timed "$tmp/httpvs-$arm" load "$url" -p h3 -k -c 10 -m 10 -d "${SECS}s" "${httpvs_rate[@]}" --json ;;
  esac
  s1=$(server_cpu)
  python3 - "$arm" "$tmp/out" "$tmp/time" "$SECS" "$s0" "$s1" "${perf_events:+$tmp/perf}" >>"$results" <<'PY'
import json, sys
arm, out, tm, secs, s0, s1 = sys.argv[1:7]
d = json.load(open(out))
if arm == "oha":
    codes = d["statusCodeDistribution"]
    ok = sum(v for k, v in codes.items() if k.startswith("2"))
    bad = sum(v for k, v in codes.items() if not k.startswith("2"))
    bad += sum(v for k, v in d["errorDistribution"].items() if k != "aborted due to deadline")
    rps = ok / min(d["summary"]["total"], float(secs))
else:
    ok, bad, rps = d["succeeded"], d["errors"]["total"], d["requests_per_second"]
ok = max(ok, 1)
cpu = sum(map(float, open(tm).read().split()))
row = [arm, rps, cpu / ok * 1e6, (float(s1) - float(s0)) / ok * 1e6, bad]
if len(sys.argv) > 7 and sys.argv[7]:
    v = {}
    for line in open(sys.argv[7]):
        f = line.strip().split(",")
        if len(f) > 2 and f[0][:1].isdigit():
            v[f[2]] = float(f[0])
    row += [v.get(k, 0) / ok for k in ["context-switches", "syscalls:sys_enter_sendmsg", "syscalls:sys_enter_recvmmsg", "syscalls:sys_enter_futex"]]
print(*row)
PY
}

# rounds FILE COUNT [RATE]: COUNT rounds of every arm, each round's order
# rotated by one (with two arms: alternating), appending to FILE.
rounds() {
  local file=$1 count=$2 rate=${3:-} r i a line order
  set -- $arms
  for r in $(seq "$count"); do
    order=()
    for i in $(seq 0 $(($# - 1))); do order+=("${@:$(( (r - 1 + i) % $# + 1 )):1}"); done
    line="round $r/$count${rate:+ at $rate req/s}:"
    for a in "${order[@]}"; do
      results=$file
      one "$a" "$rate"
      line+=" $(tail -1 "$file" | awk '{printf "%s %.0f req/s %.1f us/req;", $1, $2, $3}')"
    done
    echo "$line load $(cut -d' ' -f1 /proc/loadavg)"
  done
}

# summary FILE TITLE [RATE]: each arm's medians over FILE's rounds, and
# its ratios to oha (and httpvs's to each at-COMMIT arm): of the medians,
# and each round's, with their range; with RATE, the runs under 0.95x it.
summary() {
  python3 - "$@" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault(f[0], []).append([float(x) for x in f[1:]])
med = lambda arm, i: statistics.median(r[i] for r in rows[arm])
print(f"\n{sys.argv[2]}")
print("us/req: the client's whole-process CPU per 2xx response; server us/req: caddy's over the same run")
extra = len(next(iter(rows.values()))[0]) > 4
head = f"{'client':<8}{'req/s':>9}{'us/req':>9}{'server us/req':>15}{'pair us/req':>13}{'failed':>8}"
if extra:
    head += f"{'cs/req':>8}{'sendmsg':>9}{'recvmmsg':>10}{'futex':>7}"
print(head)
for arm in rows:
    line = f"{arm:<8}{med(arm, 0):>9.0f}{med(arm, 1):>9.1f}{med(arm, 2):>15.1f}{statistics.median(r[1] + r[2] for r in rows[arm]):>13.1f}{sum(r[3] for r in rows[arm]):>8.0f}"
    if extra:
        line += f"{med(arm, 4):>8.2f}{med(arm, 5):>9.2f}{med(arm, 6):>10.2f}{med(arm, 7):>7.2f}"
    print(line)
def spread(name, xs):
    return (f"{name} " + " ".join(f"{x:.2f}" for x in xs)
            + f" (median {statistics.median(xs):.2f}, range {min(xs):.2f}-{max(xs):.2f})")
def ratios(a, b):
    h, o = rows[a], rows[b]
    print(f"\n{a}/{b}: rate {med(a, 0) / med(b, 0):.2f}x, CPU per request {med(a, 1) / med(b, 1):.2f}x, "
          f"server's CPU per request {med(a, 2) / med(b, 2):.2f}x (of the medians)")
    print("  " + spread("rounds' CPU per request ratios", [x[1] / y[1] for x, y in zip(h, o)]))
    print("  " + spread("rounds' rate ratios", [x[0] / y[0] for x, y in zip(h, o)]))
for arm in rows:
    if arm != "oha":
        ratios(arm, "oha")
for arm in rows:
    if arm.startswith("at-"):
        ratios("httpvs", arm)
    if arm.startswith("httpvs-p"):
        ratios(arm, "httpvs")
if len(sys.argv) > 3:
    want = float(sys.argv[3])
    for arm in rows:
        short = [r[0] for r in rows[arm] if r[0] < 0.95 * want]
        if short:
            print(f"\nnote: {arm} ran under 0.95x the asked {want:.0f} req/s in {len(short)} of {len(rows[arm])} runs "
                  f"(lowest {min(short):.0f} req/s): those runs did less work a second than the others")
PY
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
if [ "$ROUNDS" -gt 0 ]; then
  rounds "$tmp/closed" "$ROUNDS"
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
  summary "$tmp/closed" "GET /small over HTTP/3 from caddy, 10 connections x 10 streams, closed loops, $SECS s a run, medians of $ROUNDS rotated rounds"
fi
[ "$PAIRS" -gt 0 ] || exit 0
if [ -z "$rate" ]; then
  rate=$(python3 -c '
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault(f[0], []).append(float(f[1]))
print(max(100, int(0.5 * min(statistics.median(v) for v in rows.values()) / 100) * 100))' "$tmp/closed")
fi
echo
echo "equal rates: every arm at $rate req/s, $PAIRS rounds, the order rotated each round (two arms: alternating)"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
rounds "$tmp/equal" "$PAIRS" "$rate"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
summary "$tmp/equal" "GET /small over HTTP/3 from caddy, 10 connections x 10 streams, open loops at $rate req/s (oha -q, httpvs --rate), $SECS s a run, medians of $PAIRS rounds" "$rate"
