#!/usr/bin/env bash
# Single-stream download: curl vs httpvs get, side by side, from one h2o
# (one thread; DOWNLOAD_SERVER=httpvs: httpvs serve) on loopback. Rounds
# alternate which client goes first, so that load from other processes
# lands on both; one warm-up download each (h2o's first read of the
# payload fills the page cache) is left out. Prints every round's rates
# and whole-process CPU (/usr/bin/time, user + system) per GB, their
# ratios httpvs/curl, the medians, and how get's blocking sockets waited
# (polling, sleeping, or sleeping for a batch of bytes: client.read_waits),
# and the server's CPU per GB while each client downloaded: a client can
# look cheaper by leaving work to the server (on loopback the kernel sends
# the server's segments in
# the context of the call that ACKs them). The aims on h1: get's rate at
# least curl's, its CPU per GB at most 0.8x curl's. httpvs get runs with
# the tuned client (256 KiB reads, 1 MiB HTTP/2 frames), as curl reads
# with its own large buffers: its default, Go as shipped, is what run
# measures Go by, not a downloader's best. The load average before and
# after is in the record, and a note when the machine was loaded.
# DOWNLOAD_READ_SIZE sets get's --read-size (default 256Ki): reads of
# 64 KiB and more wait in the kernel for a batch of half the buffer while
# data outruns them (transport's batched reads), which saves the client
# CPU but, with small buffers, moves about as much to the server; the
# client + server line says what the pair cost.
# DOWNLOAD_BASE=COMMIT adds a third arm, httpvs get built at COMMIT
# ("base"), each round in a rotated order, to show what a change moved.
#
#   bench/download.sh [SIZE] [ROUNDS] [TRANSPORTS]   defaults: 4Gi 5 h1
#   TRANSPORTS: a comma list of h1, h2c, h1-tls, h2
# Needs h2o (apt-get install h2o), curl, python3, numfmt and /usr/bin/time.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to download "$@"
SIZE=$(numfmt --from=auto "${1:-4Gi}")
ROUNDS=${2:-5}
TRANSPORTS=${3:-h1}
SERVER=${DOWNLOAD_SERVER:-h2o}
READ_SIZE=${DOWNLOAD_READ_SIZE:-256Ki}
for tool in curl python3 numfmt /usr/bin/time; do
  command -v $tool >/dev/null || { echo "bench/download.sh: $tool is needed (apt-get install curl python3 coreutils time)" >&2; exit 1; }
done
(( SIZE >= 4 << 30 )) || echo "note: $SIZE bytes is under 4 GiB: curl's CPU for it is near the clock's resolution and a Go program's start-up"

peer_setup
arms="curl httpvs"
if [ -n "${DOWNLOAD_BASE:-}" ]; then
  git worktree add -q --detach "$tmp/base-src" "$DOWNLOAD_BASE"
  (cd "$tmp/base-src" && go build -o "$tmp/httpvs-base" ./cmd/httpvs)
  git worktree remove --force "$tmp/base-src"
  arms="curl httpvs base"
  echo "base: httpvs get at $(git rev-parse --short "$DOWNLOAD_BASE")"
fi
case $SERVER in
  h2o)
    command -v h2o >/dev/null || { echo "bench/download.sh: h2o is needed (apt-get install h2o)" >&2; exit 1; }
    start_peer h2o 3 "$SIZE"
    url_of() { echo "$(peer_url h2o "$1")/bytes/$SIZE"; }
    server_pids=$(python3 -c 'import json,sys; print(*json.loads(open(sys.argv[1]).readline())["pids"])' "$tmp/h2o.json")
    echo "server: h2o $(h2o -v | head -1 | awk '{print $3}'), one thread" ;;
  httpvs)
    port=$((20000 + RANDOM % 20000))
    "$bin" serve --listen 127.0.0.1:$port --tls-listen 127.0.0.1:$((port + 1)) --no-h3 >/dev/null 2>&1 &
    pids+=($!)
    server_pids=$!
    for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$port/small && break; sleep 0.1; done
    url_of() { case $1 in h1|h2c) echo "http://127.0.0.1:$port/bytes/$SIZE" ;; *) echo "https://127.0.0.1:$((port + 1))/bytes/$SIZE" ;; esac; }
    echo "server: httpvs serve" ;;
  *) echo "bench/download.sh: DOWNLOAD_SERVER=$SERVER: want h2o or httpvs" >&2; exit 2 ;;
esac
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"

results=$tmp/results
hz=$(getconf CLK_TCK)
# server_cpu: the server processes' user + system seconds so far.
server_cpu() { for p in $server_pids; do awk '{print $14 + $15}' "/proc/$p/stat"; done | awk -v hz="$hz" '{s += $1} END {print s / hz}'; }
# curl_run T URL and get_run T URL [NAME BIN]: one download; appends "T tool
# bytes/s bytes [waits] cpu-seconds server-cpu-seconds" to $results (or to /dev/null for the
# warm-up, when WARM is set).
curl_flags() { case $1 in h1) ;; h2c) echo --http2-prior-knowledge ;; h1-tls) echo -k --http1.1 ;; h2) echo -k --http2 ;; esac; }
get_flags() { case $1 in h1|h2c) echo "-p $1" ;; *) echo "-p $1 -k" ;; esac; }
out() { if [ -n "${WARM:-}" ]; then cat >/dev/null; else cat >>"$results"; fi; }
curl_run() {
  local s0; s0=$(server_cpu)
  /usr/bin/time -f '%U %S' -o "$tmp/time" curl -sS -o /dev/null -w '%{speed_download} %{size_download}' $(curl_flags "$1") "$2" >"$tmp/out"
  echo "$1 curl $(cat "$tmp/out") $(awk '{print $1 + $2}' "$tmp/time") $(echo "$(server_cpu) $s0" | awk '{print $1 - $2}')" | out
}
get_run() {
  local s0 name=${3:-httpvs} b=${4:-$bin}; s0=$(server_cpu)
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$b" get $(get_flags "$1") --read-size "$READ_SIZE" --h2-max-frame 1Mi \
    --json --no-server-stats "$2" >"$tmp/out"
  echo "$1 $name $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
w = d["client"].get("read_waits")
mode = "-"
if w:
    mode = "%s:%d/%d/%d/%d/%d/%d" % ("polling" if w["polled"] > w["blocked"] else "sleeping", w["reads"], w["polled"], w["polls"], w["blocked"],
        w.get("batched", 0), w.get("stalled", 0))
print(d["bits_per_second"] / 8, d["bytes"], mode)' "$tmp/out") $(awk '{print $1 + $2}' "$tmp/time") $(echo "$(server_cpu) $s0" | awk '{print $1 - $2}')" | out
}

# run_arm ARM T URL: one download by ARM (curl, httpvs or base).
run_arm() {
  case $1 in
    curl) curl_run "$2" "$3" ;;
    httpvs) get_run "$2" "$3" ;;
    base) get_run "$2" "$3" base "$tmp/httpvs-base" ;;
  esac
}

for t in ${TRANSPORTS//,/ }; do
  u=$(url_of "$t")
  echo "$t: warm-up (left out)" >&2
  for a in $arms; do WARM=1 run_arm "$a" "$t" "$u"; done
  read -ra order <<<"$arms"
  for r in $(seq "$ROUNDS"); do
    # Round r starts at arm r-1 of the list, rotated: with two arms,
    # curl first in odd rounds.
    k=$(( (r - 1) % ${#order[@]} ))
    rot=("${order[@]:k}" "${order[@]:0:k}")
    echo "$t: round $r/$ROUNDS (${rot[*]})" >&2
    for a in "${rot[@]}"; do run_arm "$a" "$t" "$u"; done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load after: $load_after ($(nproc) cores)"

python3 - "$results" "$SIZE" "$ROUNDS" "$READ_SIZE" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    f = line.split()
    t, tool, bps, size = f[0], f[1], float(f[2]), float(f[3])
    waits = f[4] if tool != "curl" else ""
    secs, ssecs = float(f[-2]), float(f[-1])
    rows.setdefault(t, {}).setdefault(tool, []).append((bps, secs / (size / 1e9), waits, ssecs / (size / 1e9)))
print(f"single-stream download of {sys.argv[2]} bytes, {sys.argv[3]} rounds, each in a rotated order of the clients;")
print(f"httpvs get with {sys.argv[4]} reads, 1Mi frames; CPU s/GB: each client's whole process (user + system) per GB")
print("received; ratios httpvs/curl (base/curl) within each round (rate above 1: httpvs faster; CPU below 1: httpvs cheaper);")
print("server s/GB: the server's CPU per GB while that client downloaded (its ratio: that arm's / curl's);")
print("waits: how get's blocking sockets waited, mode:reads/ended by polls/empty polls/blocking recv calls/")
print("       of those, batched (SO_RCVLOWAT, half the read buffer)/batched waits that found nothing in their bound")
for t, tools in rows.items():
    c = tools["curl"]
    for tool in [x for x in ("httpvs", "base") if x in tools]:
        h = tools[tool]
        print(f"\n{t} {tool}  {'round':>5}{'curl GB/s':>11}{tool:>8}{'rate ratio':>12}{'curl s/GB':>11}{tool:>8}{'CPU ratio':>11}"
              f"{'server s/GB':>13}{tool:>7}{'ratio':>8}  waits")
        rr, cr, sr = [], [], []
        for i, ((cb, cc, _, cs), (hb, hc, w, hs)) in enumerate(zip(c, h), 1):
            rr.append(hb / cb); cr.append(hc / cc); sr.append(hs / cs if cs else float("nan"))
            print(f"{'':{len(t) + len(tool) + 3}}{i:>5}{cb / 1e9:>11.2f}{hb / 1e9:>8.2f}{rr[-1]:>11.2f}x{cc:>11.3f}{hc:>8.3f}{cr[-1]:>10.2f}x"
                  f"{cs:>13.3f}{hs:>7.3f}{sr[-1]:>7.2f}x  {w}")
        med = lambda xs: statistics.median(xs)
        print(f"{'':{len(t) + len(tool) + 3}}{'med':>5}{med([x[0] for x in c]) / 1e9:>11.2f}{med([x[0] for x in h]) / 1e9:>8.2f}{med(rr):>11.2f}x"
              f"{med([x[1] for x in c]):>11.3f}{med([x[1] for x in h]):>8.3f}{med(cr):>10.2f}x"
              f"{med([x[3] for x in c]):>13.3f}{med([x[3] for x in h]):>7.3f}{med(sr):>7.2f}x")
        tr = [(hc + hs) / (cc + cs) for (_, cc, _, cs), (_, hc, _, hs) in zip(c, h)]
        print(f"{'':{len(t) + len(tool) + 3}}client + server s/GB, medians: curl's pair {med([x[1] + x[3] for x in c]):.3f}, "
              f"{tool}'s {med([x[1] + x[3] for x in h]):.3f}; ratio {med(tr):.2f}x")
PY
python3 - "$(nproc)" "$(cut -d' ' -f1 <<<"$load_after")" <<'PY'
import sys
cores, load = int(sys.argv[1]), float(sys.argv[2])
if load >= cores / 2:
    print(f"\nnote: the machine was loaded (load average {load} on {cores} cores at the end): other processes")
    print("shared the cores, so absolute rates are low and noisy; each round rotated the clients' order so that")
    print("load fell on all of them, and the ratios within rounds are the figures to read.")
PY
