#!/usr/bin/env bash
# Generators and clients against a reference server and against Go's,
# side by side in one run: httpvs load vs h2load (h2c, -c 10 -m 10) and vs
# wrk (h1, -c 50) against h2o (one thread) and against httpvs serve, and
# vs h2load over TLS (h2, -c 10 -m 10) against h2o; vs oha over HTTP/3
# (h3, -c 10 -p 10: ten QUIC connections of ten streams) against caddy,
# the only server here with h3 (h2o 2.2 has none); then
# httpvs get vs curl downloading one big body from httpvs serve over h1
# and h2c, with each client's whole-process wall, user and system time.
# Prints the figures and the ratios httpvs/peer ("serve" rows: against
# httpvs serve); a ratio near 1 says httpvs's generator keeps up with the
# C one against that server.
#
#   bench/peers.sh [SECONDS] [ROUNDS] [SIZE]   defaults: 5 3 4000000000
# PEERS_PART=get runs only the downloads (no h2o, h2load or wrk needed),
# to iterate on httpvs get quickly; the record then holds only that table.
# PEERS_PART=h3 runs only HTTP/3: oha and httpvs load with each engine
# (fast, std) against caddy, and both engines against httpvs serve, each
# client's whole-process CPU per successful request beside its req/s.
# Needs h2o, h2load, wrk, curl, python3 and /usr/bin/time:
#   apt-get install h2o nghttp2-client wrk curl python3 time
# The h3 row needs caddy (apt-get install caddy) and oha, which the script
# installs with cargo when it is missing, and is left out without them. oha 1.16 over HTTP/3
# stays ~30 s after its run (it waits out the QUIC idle timeout; its
# requests end at -z's deadline, so its req/s is over SECONDS): each round
# takes that much longer.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to peers "$@"
SECS=${1:-5}
ROUNDS=${2:-3}
SIZE=${3:-4000000000}
PART=${PEERS_PART:-all}
case $PART in
  all) tools="h2o h2load wrk curl python3 /usr/bin/time" ;;
  get) tools="curl python3 /usr/bin/time" ;;
  h3) tools="caddy oha curl python3 /usr/bin/time" ;;
  *) echo "bench/peers.sh: PEERS_PART=$PART: want all, get or h3" >&2; exit 2 ;;
esac
# oha, the HTTP/3 peer, is not packaged: need_oha (bench/lib.sh)
# installs it with cargo; where it cannot be installed the record says so
# and the h3 row is left out.
oha_missing=
if [ "$PART" != get ] && ! need_oha; then
  # Said on stdout: the record keeps why it has no HTTP/3 peer.
  echo "no HTTP/3 peer: oha could not be installed ($oha_missing)"
fi
[ "$PART" != h3 ] || [ -z "$oha_missing" ] || exit 1
for tool in $tools; do
  command -v $tool >/dev/null || { echo "bench/peers.sh: $tool is needed (apt-get install h2o nghttp2-client wrk curl python3 time)" >&2; exit 1; }
done

peer_setup

# h2o, through package peers: one thread, loopback ephemeral ports.
if [ "$PART" = all ]; then
  start_peer h2o 3
  h2o_h1=$(peer_url h2o h1)
  h2o_h2=$(peer_url h2o h2)
fi

# caddy, likewise, for the h3 row.
caddy_h3=
if [ "$PART" != get ] && command -v caddy >/dev/null && command -v oha >/dev/null; then
  start_peer caddy 4
  caddy_h3=$(peer_url caddy h3)
  echo "caddy $(caddy version | awk '{print $1}') at $caddy_h3 (h3), oha $(oha --version | awk '{print $2}')" >&2
elif [ "$PART" = all ]; then
  echo "no h3 row: it needs caddy and oha (apt-get install caddy; cargo install oha --features http3)" >&2
fi

port=$((20000 + RANDOM % 20000))
tls_listen=""
[ "$PART" != h3 ] || tls_listen=127.0.0.1:$((port + 1))   # h3: UDP on the same port number
"$bin" serve --listen 127.0.0.1:$port --tls-listen "$tls_listen" >/dev/null 2>&1 3>&- &
pids+=($!)
for _ in $(seq 50); do curl -s -o /dev/null http://127.0.0.1:$port/small && break; sleep 0.1; done
go_url=http://127.0.0.1:$port
go_h3=${tls_listen:+https://$tls_listen}
if [ "$PART" = all ]; then
  echo "h2o $(h2o -v | head -1 | awk '{print $3}') at $h2o_h1 (num-threads 1); httpvs serve at $go_url; $SECS s per load run" >&2
elif [ "$PART" = h3 ]; then
  echo "httpvs serve at $go_h3 (h3); HTTP/3 only (PEERS_PART=h3), $SECS s per load run" >&2
else
  echo "httpvs serve at $go_url; downloads only (PEERS_PART=get)" >&2
fi

results=$tmp/results
# cpu_per N: this client's whole-process CPU (user + system, from
# /usr/bin/time into $tmp/time) per request of N, in microseconds.
cpu_per() { python3 -c 'import sys; print(sum(map(float, open(sys.argv[1]).read().split())) / max(float(sys.argv[2]), 1) * 1e6)' "$tmp/time" "$1"; }
# wrk_rps URL and h2load_rps URL: req/s and whole-process CPU per
# request in microseconds (wrk: per request it counted; h2load: per one
# that succeeded).
wrk_rps() {
  /usr/bin/time -f '%U %S' -o "$tmp/time" wrk -t2 -c50 -d"${SECS}s" "$1/small" >"$tmp/peer.out"
  echo "$(awk '/Requests\/sec/ {print $2}' "$tmp/peer.out") $(cpu_per "$(awk '/requests in/ {print $1}' "$tmp/peer.out")")"
}
h2load_rps() {
  /usr/bin/time -f '%U %S' -o "$tmp/time" h2load -c10 -m10 -D "$SECS" "$1/small" >"$tmp/peer.out"
  echo "$(awk '/^finished in/ {for (i=1;i<=NF;i++) if ($i=="req/s,") print $(i-1)}' "$tmp/peer.out") $(cpu_per "$(awk '/^requests:/ {for (i=1;i<=NF;i++) if ($i=="succeeded,") print $(i-1)}' "$tmp/peer.out")")"
}
# oha_rps URL: req/s of 2xx responses over SECS (oha's report comes ~30 s
# later over h3, and its requests end at the deadline), "oha", and the
# failed requests (other statuses, errors; not those cut off by -z).
# Its whole-process CPU (/usr/bin/time, the idle tail included) per 2xx
# response, in microseconds, is the fourth field.
oha_rps() {
  /usr/bin/time -f '%U %S' -o "$tmp/oha-time" \
    oha --no-tui --output-format json --http-version 3 --insecure -c 10 -p 10 -z "${SECS}s" "$1/small" >"$tmp/oha.json"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[2]))
ok = sum(v for k, v in d["statusCodeDistribution"].items() if k.startswith("2"))
bad = sum(v for k, v in d["statusCodeDistribution"].items() if not k.startswith("2"))
bad += sum(v for k, v in d["errorDistribution"].items() if k != "aborted due to deadline")
cpu = sum(map(float, open(sys.argv[3]).read().split()))
print(ok / min(d["summary"]["total"], float(sys.argv[1])), "oha", bad, cpu / max(ok, 1) * 1e6)' "$SECS" "$tmp/oha.json" "$tmp/oha-time"
}
# httpvs_h3 URL ENGINE: httpvs load over h3 (-c 10 -m 10) with ENGINE:
# req/s, engine, failures, and whole-process CPU per success in us.
httpvs_h3() {
  /usr/bin/time -f '%U %S' -o "$tmp/httpvs-time" \
    "$bin" load "$1/small" -p h3 -k -c 10 -m 10 -d "${SECS}s" --engine "$2" --json >"$tmp/httpvs.json"
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cpu = sum(map(float, open(sys.argv[2]).read().split()))
print(d["requests_per_second"], d["engine"], d["errors"]["total"], cpu / max(d["succeeded"], 1) * 1e6)' "$tmp/httpvs.json" "$tmp/httpvs-time"
}
# httpvs_rps URL FLAGS...: httpvs load's req/s, engine, failures, and
# whole-process CPU per success in microseconds.
httpvs_rps() {
  local url=$1; shift
  /usr/bin/time -f '%U %S' -o "$tmp/time" "$bin" load "$url/small" -d "${SECS}s" --json "$@" >"$tmp/httpvs.json"
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["requests_per_second"], d["engine"], d["errors"]["total"], d["succeeded"])' "$tmp/httpvs.json" | {
    read -r rps engine errs ok; echo "$rps $engine $errs $(cpu_per "$ok")"; }
}
# record SERVER TRANSPORT PEER PEER_LINE HTTPVS_LINE: one pair's figures
# (rates, and CPU per request as "cpu" lines).
record() {
  local srv=$1 t=$2 peer=$3 pr pc hr he hf hc
  read -r pr pc <<<"$4"; read -r hr he hf hc <<<"$5"
  { echo "load $srv $t $peer $pr"; echo "load $srv $t httpvs $hr $he $hf"
    echo "cpu $srv $t $peer $pc"; echo "cpu $srv $t httpvs $hc"; } >>"$results"
}
# load SERVER BASE_URL ROUND [TLS_URL]: both pairs (and h2 over TLS_URL
# against h2load), the peer first in odd rounds.
load() {
  local srv=$1 url=$2 r=$3 tls=${4:-} w h p h2 tp th
  if (( r % 2 )); then
    w=$(wrk_rps "$url"); h=$(httpvs_rps "$url" -p h1 -c 50)
    p=$(h2load_rps "$url"); h2=$(httpvs_rps "$url" -p h2c -c 10 -m 10)
    [ -z "$tls" ] || { tp=$(h2load_rps "$tls"); th=$(httpvs_rps "$tls" -p h2 -k -c 10 -m 10); }
  else
    h=$(httpvs_rps "$url" -p h1 -c 50); w=$(wrk_rps "$url")
    h2=$(httpvs_rps "$url" -p h2c -c 10 -m 10); p=$(h2load_rps "$url")
    [ -z "$tls" ] || { th=$(httpvs_rps "$tls" -p h2 -k -c 10 -m 10); tp=$(h2load_rps "$tls"); }
  fi
  record "$srv" h1 wrk "$w" "$h"; record "$srv" h2c h2load "$p" "$h2"
  [ -z "$tls" ] || record "$srv" h2 h2load "$tp" "$th"
  echo "  $srv h1: wrk ${w%% *} httpvs ${h%% *}; h2c: h2load ${p%% *} httpvs ${h2%% *}${tls:+; h2: h2load ${tp%% *} httpvs ${th%% *}}" >&2
}
# load_h3 ROUND: httpvs load h3 (the default engine, fast) vs oha h3
# against caddy, the peer first in odd rounds; with PEERS_PART=h3 also the
# std engine against caddy and both engines against httpvs serve, in an
# order that turns each round.
load_h3() {
  local r=$1 line w s
  local runs=("oha caddy" "fast caddy")
  [ "$PART" != h3 ] || runs+=("std caddy" "fast serve" "std serve")
  local n=${#runs[@]} k=$(( (r - 1) % ${#runs[@]} ))
  for i in $(seq 0 $((n - 1))); do
    read -r w s <<<"${runs[$(( (k + i) % n ))]}"
    local url=$caddy_h3
    [ "$s" = caddy ] || url=$go_h3
    if [ "$w" = oha ]; then
      line=$(oha_rps "$url")
      set -- $line
      echo "load $s h3 oha $1" >>"$results"; echo "peerfail oha $3" >>"$results"
      echo "cpu $s h3 oha $4" >>"$results"
    else
      line=$(httpvs_h3 "$url" "$w")
      set -- $line
      local client=httpvs
      [ "$w" = fast ] || client=httpvs-$w
      echo "load $s h3 $client $1 $2 $3" >>"$results"; echo "cpu $s h3 $client $4" >>"$results"
    fi
    printf '  %s h3 %s: %.0f req/s, %.1f us CPU/request\n' "$s" "$w" "$1" "$4" >&2
  done
}
# timed NAME TRANSPORT CMD...: one download, whole-process wall/user/sys.
timed() {
  local name=$1 t=$2; shift 2
  /usr/bin/time -f '%e %U %S' -o "$tmp/time" "$@" >"$tmp/out"
  echo "get $t $name $(cat "$tmp/time") $(python3 - "$name" "$tmp/out" <<'PY'
import json, sys
out = open(sys.argv[2]).read()
print(json.loads(out)["size_download" if sys.argv[1] == "curl" else "bytes"])
PY
)" >>"$results"
}
# httpvs get with the tuned client, as curl reads with its own large
# buffers: get's default is Go as shipped (8 KiB reads, 16 KiB frames).
tuned="--read-size 256Ki --h2-max-frame 1Mi"
download() {
  local r=$1 u=$go_url/bytes/$SIZE
  for t in h1 h2c; do
    local flag=--http1.1; [ $t = h2c ] && flag=--http2-prior-knowledge
    if (( r % 2 )); then
      timed curl $t curl -sS -o /dev/null -w '%{json}' $flag "$u"
      timed httpvs $t "$bin" get -p $t $tuned --no-server-stats --json "$u"
    else
      timed httpvs $t "$bin" get -p $t $tuned --no-server-stats --json "$u"
      timed curl $t curl -sS -o /dev/null -w '%{json}' $flag "$u"
    fi
    echo "  get $t: $(tail -2 "$results" | awk '{printf "%s %ss  ", $3, $4}')" >&2
  done
}

for r in $(seq "$ROUNDS"); do
  echo "round $r/$ROUNDS ($( (( r % 2 )) && echo "peers first" || echo "httpvs first"))" >&2
  if [ "$PART" = all ]; then
    load h2o "$h2o_h1" "$r" "$h2o_h2"
    load go "$go_url" "$r"
  fi
  [ "$PART" = get ] || [ -z "$caddy_h3" ] || load_h3 "$r"
  [ "$PART" = h3 ] || download "$r"
done
cpu=
if [ "$PART" = all ]; then
  exec 3>&-   # h2o's CPU: peerserver prints it as it stops
  for _ in $(seq 100); do [ "$(wc -l <"$tmp/h2o.json")" -ge 2 ] && break; sleep 0.1; done
  cpu=$(sed -n 2p "$tmp/h2o.json")
fi

[ "$PART" != get ] || echo "PEERS_PART=$PART: downloads only"
[ "$PART" != h3 ] || echo "PEERS_PART=$PART: HTTP/3 only"
python3 - "$results" "$SECS" "$ROUNDS" "$SIZE" "$cpu" <<'PY'
import json, statistics, sys
loads, gets, engines, errors, peerfail, cpus = {}, {}, {}, 0, {}, {}
for line in open(sys.argv[1]):
    f = line.split()
    if f[0] == "peerfail":
        peerfail[f[1]] = peerfail.get(f[1], 0) + int(f[2])
    elif f[0] == "cpu":
        cpus.setdefault((f[1], f[2], f[3]), []).append(float(f[4]))
    elif f[0] == "load":
        loads.setdefault((f[1], f[2], f[3]), []).append(float(f[4]))
        if len(f) > 5:
            errors += int(f[6])
            if f[3] == "httpvs":
                engines[f[2]] = f[5]
    else:
        gets.setdefault((f[1], f[2]), []).append([float(x) for x in f[3:7]])
secs, rounds, size = sys.argv[2], sys.argv[3], int(sys.argv[4])
if loads:
    print(f"GET /small, {secs} s per run, median of {rounds} interleaved round(s), req/s; ratio = httpvs / peer;")
    print("us/req: each client's whole-process CPU (/usr/bin/time, user + system) per request; CPU ratio = httpvs / peer (below 1: httpvs cheaper)")
    print(f"{'server':<8}{'transport':<10}{'peer':>8}{'peer req/s':>12}{'httpvs':>10}{'engine':>8}{'ratio':>8}{'peer us/req':>12}{'httpvs':>8}{'CPU ratio':>10}  each round")
    for srv, label in [("h2o", "h2o"), ("go", "serve"), ("caddy", "caddy")]:
        for t, peer in [("h1", "wrk"), ("h2c", "h2load"), ("h2", "h2load"), ("h3", "oha")]:
            if (srv, t, peer) not in loads:
                continue
            p = loads[(srv, t, peer)]; h = loads[(srv, t, "httpvs")]
            each = " ".join(f"{x / y:.2f}" for x, y in zip(h, p))
            cpu = ""
            if (srv, t, peer) in cpus and (srv, t, "httpvs") in cpus:
                pc, hc = statistics.median(cpus[(srv, t, peer)]), statistics.median(cpus[(srv, t, "httpvs")])
                cpu = f"{pc:>12.1f}{hc:>8.1f}{hc / pc:>9.2f}x"
                each += "; CPU " + " ".join(f"{x / y:.2f}" for x, y in zip(cpus[(srv, t, "httpvs")], cpus[(srv, t, peer)]))
            print(f"{label:<8}{t:<10}{peer:>8}{statistics.median(p):>12.0f}{statistics.median(h):>10.0f}"
                  f"{engines.get(t, '?'):>8}{statistics.median(h) / statistics.median(p):>7.2f}x{cpu}  {each}")
    if errors:
        print(f"httpvs load counted {errors} failed requests across the runs")
    for peer, n in peerfail.items():
        if n:
            print(f"{peer} counted {n} failed requests across the runs (not in its req/s)")
    print()
if any(k[1] == "h3" for k in cpus):
    print("HTTP/3, GET /small, ten QUIC connections of ten streams; CPU: each client's whole process")
    print("(/usr/bin/time) per successful request, us; median of the rounds; ratio = req/s over oha's")
    print(f"{'server':<8}{'client':<13}{'req/s':>9}{'us/req':>9}{'ratio':>8}  each round (req/s)")
    for srv, label in [("caddy", "caddy"), ("serve", "serve")]:
        oha = loads.get((srv, "h3", "oha"))
        for c in ["oha", "httpvs", "httpvs-std"]:
            if (srv, "h3", c) not in loads:
                continue
            rps = loads[(srv, "h3", c)]
            ratio = f"{statistics.median(rps) / statistics.median(oha):>7.2f}x" if oha else f"{'':>8}"
            name = c if c != "httpvs" else "httpvs-fast"
            print(f"{label:<8}{name:<13}{statistics.median(rps):>9.0f}{statistics.median(cpus[(srv, 'h3', c)]):>9.1f}{ratio}"
                  f"  {' '.join(f'{x:.0f}' for x in rps)}")
        fast, std = loads.get((srv, "h3", "httpvs")), loads.get((srv, "h3", "httpvs-std"))
        if fast and std:
            print(f"{label:<8}fast/std    {statistics.median(fast) / statistics.median(std):>7.2f}x req/s, "
                  f"{statistics.median(cpus[(srv, 'h3', 'httpvs')]) / statistics.median(cpus[(srv, 'h3', 'httpvs-std')]):.2f}x CPU per request;"
                  f" rounds {' '.join(f'{x / y:.2f}' for x, y in zip(fast, std))}")
    print()
if not gets:
    sys.exit(0)
print(f"one {size}-byte download from httpvs serve, whole client process, median of {rounds} round(s)")
print(f"{'transport':<10}{'client':>8}{'bytes':>12}{'wall s':>8}{'user s':>8}{'sys s':>8}{'GB/s':>7}{'CPU s/GB':>9}")
for t in ["h1", "h2c"]:
    row, cpu = {}, {}
    for c in ["curl", "httpvs"]:
        m = [statistics.median(x) for x in zip(*gets[(t, c)])]
        wall, user, sys_, got = m
        row[c] = wall
        cpu[c] = statistics.median(x[1] + x[2] for x in gets[(t, c)])
        flag = "" if int(got) == size else f"  (got {int(got)} bytes!)"
        print(f"{t:<10}{c:>8}{int(got):>12}{wall:>8.2f}{user:>8.2f}{sys_:>8.2f}{size / wall / 1e9:>7.2f}{(user + sys_) / (size / 1e9):>9.3f}{flag}")
    print(f"{'':<10}{'ratio':>8}  httpvs/curl wall {row['httpvs'] / row['curl']:.2f}x (below 1: httpvs faster), "
          f"CPU per GB {cpu['httpvs'] / cpu['curl']:.2f}x (below 1: httpvs cheaper); rounds' CPU ratios "
          + " ".join(f"{(h[1] + h[2]) / (c[1] + c[2]):.2f}" for h, c in zip(gets[(t, 'httpvs')], gets[(t, 'curl')])))
if sys.argv[5]:
    c = json.loads(sys.argv[5])
    print(f"\nh2o's CPU over the whole run: {c['cpu_user_seconds']:.2f} s user, {c['cpu_system_seconds']:.2f} s system")
PY
