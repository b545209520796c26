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
# H3LOAD_BASE="COMMIT..." adds httpvs built at each COMMIT (arm
# "at-COMMIT") as another arm, to show what a change moved.
# H3LOAD_SYSCALLS=1 runs every client under `perf stat` and adds its
# sendmsg, recvmmsg and futex calls and its context switches per
# request: counts that the machine's load moves less than it moves time.
#
#   bench/h3load.sh [SECONDS] [ROUNDS]   defaults: 5 5
# Needs caddy (apt-get install caddy), python3, /usr/bin/time and oha,
# which need_oha (bench/lib.sh) installs with cargo when it is missing.
# oha over HTTP/3 may stay up to ~30 s after its run (the QUIC idle
# timeout; its requests end at -z's deadline): its rate is over SECONDS.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to h3load "$@"
SECS=${1:-5}
ROUNDS=${2:-5}
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

results=$tmp/results
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
# one ARM: one run; appends "ARM req/s cpu-per-request server-cpu-per-request
# failures [perf counts per request]" to $results.
one() {
  local arm=$1 s0 s1
  s0=$(server_cpu)
  case $arm in
    oha) timed oha --no-tui --output-format json --http-version 3 --insecure -c 10 -p 10 -z "${SECS}s" "$url" ;;
    httpvs) timed "$bin" load "$url" -p h3 -k -c 10 -m 10 -d "${SECS}s" --json ;;
    at-*) timed "$tmp/httpvs-$arm" load "$url" -p h3 -k -c 10 -m 10 -d "${SECS}s" --json ;;
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

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
set -- $arms
n=$#
for r in $(seq "$ROUNDS"); do
  order=()
  for i in $(seq 0 $((n - 1))); do order+=("${@:$(( (r - 1 + i) % n + 1 )):1}"); done
  line="round $r/$ROUNDS:"
  for a in "${order[@]}"; do
    one "$a"
    line+=" $(tail -1 "$results" | awk '{printf "%s %.0f req/s %.1f us/req;", $1, $2, $3}')"
  done
  echo "$line load $(cut -d' ' -f1 /proc/loadavg)"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$results" "$SECS" "$ROUNDS" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    rows.setdefault(f[0], []).append([float(x) for x in f[1:]])
med = lambda arm, i: statistics.median(r[i] for r in rows[arm])
print(f"\nGET /small over HTTP/3 from caddy, 10 connections x 10 streams, {sys.argv[2]} s a run, medians of {sys.argv[3]} rotated rounds")
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
for arm in rows:
    if arm == "oha":
        continue
    o, h = rows["oha"], rows[arm]
    print(f"\n{arm}/oha: rate {med(arm, 0) / med('oha', 0):.2f}x, CPU per request {med(arm, 1) / med('oha', 1):.2f}x, "
          f"server's CPU per request {med(arm, 2) / med('oha', 2):.2f}x (medians)")
    print("  rounds' rate ratios " + " ".join(f"{x[0] / y[0]:.2f}" for x, y in zip(h, o))
          + "; CPU ratios " + " ".join(f"{x[1] / y[1]:.2f}" for x, y in zip(h, o)))
for arm in rows:
    if not arm.startswith("at-"):
        continue
    b, h = rows[arm], rows["httpvs"]
    print(f"\nhttpvs/{arm}: rate {med('httpvs', 0) / med(arm, 0):.2f}x, CPU per request {med('httpvs', 1) / med(arm, 1):.2f}x; "
          "rounds' CPU ratios " + " ".join(f"{x[1] / y[1]:.2f}" for x, y in zip(h, b)))
PY
