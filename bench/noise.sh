#!/usr/bin/env bash
# Machine noise under a single-stream loopback download: the floor of the
# verdict's intervals (bench/verdict.sh). Alternates h1 and h2c downloads
# with `httpvs get` from one `httpvs serve`, PAIRS times at each of two
# lengths (about 100 ms and 1 s), and prints for each:
#   - the spread of each transport's rate (coefficient of variation) and of
#     the paired log ratio h2c/h1, and the rounds a 95% interval of
#     +-10% would need at that spread;
#   - whether slow transfers coincide with other work on the machine:
#     foreign CPU (the machine's busy time in /proc/stat less the client's
#     and the server's), hypervisor steal, CPU pressure (PSI), and the
#     correlation of the rate with the CPU the transfer cost per byte;
#   - the autocorrelation of the transfers' rates in time order (near 0:
#     each transfer's rate is independent of the one before, so pairing
#     neighbours cannot cancel it).
# Each pair is measured twice, interleaved: unpinned (client and server
# left to the scheduler), and pinned (a second server started with
# `serve --cpus` on the last CPU, the client on the first, as `httpvs run`
# pins them): the spread of the two side by side says what pinning buys.
#
#   bench/noise.sh [PAIRS [CLIENT]]   default PAIRS: 30, CLIENT: tuned
# CLIENT is tuned (256 KiB reads, 1 MiB frames) or shipped (Go as shipped:
# 8 KiB reads, 16 KiB frames, what a default run's headline rows measure).
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to noise "$@"
PAIRS=${1:-30}
CLIENT=${2:-tuned}
case $CLIENT in tuned|shipped) ;; *) echo "bench/noise.sh: CLIENT $CLIENT: want tuned or shipped" >&2; exit 2 ;; esac
command -v python3 >/dev/null || { echo "bench/noise.sh: python3 is needed" >&2; exit 1; }
[ -r /proc/pressure/cpu ] || echo "bench/noise.sh: no /proc/pressure/cpu (PSI): pressure is not measured" >&2

dir=$(mktemp -d)
go build -o "$dir/httpvs" ./cmd/httpvs
cpus=$(nproc)
[ "$cpus" -ge 2 ] || { echo "bench/noise.sh: one CPU: nothing to pin apart" >&2; exit 1; }
serve() { # serve BANNER [FLAGS...]: start a server, print its pid and port
  local banner=$1; shift
  "$dir/httpvs" serve --listen 127.0.0.1:0 --tls-listen "" --grpc-listen "" --no-h3 "$@" >"$banner" 2>&1 &
  local pid=$!
  for _ in $(seq 100); do
    grep -q "h1, h2c" "$banner" && break
    sleep 0.1
  done
  local port
  port=$(sed -n 's#.*h1, h2c *http://127.0.0.1:\([0-9]*\).*#\1#p' "$banner")
  [ -n "$port" ] || { echo "bench/noise.sh: httpvs serve did not start: $(cat "$banner")" >&2; exit 1; }
  echo "$pid $port"
}
read -r server port < <(serve "$dir/banner")
read -r pserver pport < <(serve "$dir/pbanner" --cpus $((cpus - 1)))
trap 'kill $server $pserver 2>/dev/null; wait $server $pserver 2>/dev/null; rm -rf "$dir"' EXIT

python3 - "$dir/httpvs" "$port" "$server" "$PAIRS" "$pport" "$pserver" "$CLIENT" <<'PY'
import functools, json, math, os, resource, statistics as st, subprocess, sys, time
hv, pairs = sys.argv[1], int(sys.argv[4])
servers = {False: (sys.argv[2], int(sys.argv[3])), True: (sys.argv[5], int(sys.argv[6]))}
tick = os.sysconf("SC_CLK_TCK")
shipped = sys.argv[7] == "shipped"
knobs = [] if shipped else ["--read-size", "256Ki", "--h2-max-frame", "1Mi"]

def machine():
    v = list(map(int, open("/proc/stat").readline().split()[1:]))
    busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7]  # user nice system irq softirq steal
    return busy / tick, v[7] / tick

def pressure():
    try:
        return int(open("/proc/pressure/cpu").readline().split("total=")[1]) / 1e6
    except OSError:
        return math.nan

def server_cpu(server):
    f = open(f"/proc/{server}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / tick

def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def transfer(proto, size, pinned):
    port, server = servers[pinned]
    pin = (lambda: os.sched_setaffinity(0, {0})) if pinned else None
    b0, s0, p0, c0, k0, t0 = *machine(), pressure(), server_cpu(server), children_cpu(), time.time()
    out = subprocess.run([hv, "get", "--json", "--no-server-stats", *knobs, "-p", proto, f"http://127.0.0.1:{port}/{size}"],
                         capture_output=True, text=True, preexec_fn=pin)
    b1, s1, p1, c1, k1, t1 = *machine(), pressure(), server_cpu(server), children_cpu(), time.time()
    if out.returncode != 0:
        sys.exit(f"httpvs get {proto} {size}: {out.stderr.strip()}")
    j = json.loads(out.stdout)
    wall = t1 - t0
    ours = (k1 - k0) + (c1 - c0)
    return dict(proto=proto, pinned=pinned, rate=j["bytes"] / j["seconds"], bytes=j["bytes"], wall=wall,
                foreign=(b1 - b0 - ours) / wall, steal=(s1 - s0) / wall, psi=(p1 - p0) / wall, cpu_per_gb=ours / (j["bytes"] / 1e9))

def corr(x, y):
    try:
        return st.correlation(x, y)
    except (st.StatisticsError, ValueError):
        return math.nan

def autocorr(x):
    m, v = st.mean(x), sum((a - st.mean(x)) ** 2 for a in x)
    return sum((x[i] - m) * (x[i + 1] - m) for i in range(len(x) - 1)) / v if v else math.nan

@functools.lru_cache(maxsize=None)
def t975(df):
    # Student's t, two-sided 95%: the exact quantile by bisection on its
    # CDF (the regularized incomplete beta, by numerical integration of
    # the density), so no table runs out past 30 degrees of freedom.
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    dens = lambda x: c * (1 + x * x / df) ** (-(df + 1) / 2)
    def tail(t, n=2000):  # P(0 <= T <= t), Simpson's rule
        h = t / n
        return h / 3 * (dens(0) + dens(t) + sum((4 if i % 2 else 2) * dens(i * h) for i in range(1, n)))
    lo, hi = 0.0, 20.0
    for _ in range(50):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if tail(mid) < 0.475 else (lo, mid)
    return (lo + hi) / 2

def rounds_for(sd, target=math.asinh(0.10)):
    n = 2
    while t975(n - 1) * sd / math.sqrt(n) > target and n < 10000:
        n += 1
    return n

# Sizes measured on this machine class to take about 100 ms and 1 s as
# by `httpvs get` with the tuned client (256 KiB reads, 1 MiB frames): h1
# ~3-7 GB/s, h2c ~1-2 GB/s.
lengths = {"~100 ms": {"h1": "512Mi", "h2c": "160Mi"}, "~1 s": {"h1": "5Gi", "h2c": "1600Mi"}}
if shipped:  # Go as shipped reads h1 at ~2-4 GB/s and h2c at ~0.5-0.9 GB/s here
    lengths = {"~100 ms": {"h1": "320Mi", "h2c": "64Mi"}, "~1 s": {"h1": "3Gi", "h2c": "640Mi"}}
print(f"client: {'Go as shipped (8 KiB reads, 16 KiB frames)' if shipped else 'tuned (256 KiB reads, 1 MiB frames)'}")
def summary(name, sizes, rows):
    z = {}
    for proto in ("h1", "h2c"):
        r = [x for x in rows if x["proto"] == proto]
        rate = [x["rate"] for x in r]
        z[proto] = [math.log(x) for x in rate]
        print(f"  {proto:4} rate median {st.median(rate)/1e9:5.2f} GB/s, min {min(rate)/1e9:5.2f}, max {max(rate)/1e9:5.2f}, "
              f"spread (sd of log) {100*st.stdev(z[proto]):3.0f}%; corr(rate, CPU per GB) {corr(rate, [x['cpu_per_gb'] for x in r]):+.2f}")
        print(f"       foreign CPU median {st.median([x['foreign'] for x in r]):+.2f} cores (max {max(x['foreign'] for x in r):+.2f}), "
              f"corr(rate, foreign) {corr(rate, [x['foreign'] for x in r]):+.2f}; steal {sum(x['steal']*x['wall'] for x in r):.2f} s; "
              f"CPU pressure median {st.median([x['psi'] for x in r]):.2f}, corr(rate, pressure) {corr(rate, [x['psi'] for x in r]):+.2f}")
    logratio = [b - a for a, b in zip(z["h1"], z["h2c"])]
    sd = st.stdev(logratio)
    resid = [math.log(x["rate"]) - st.mean(z[x["proto"]]) for x in rows]
    print(f"  h2c/h1 paired: ratio {math.exp(st.mean(logratio)):.2f}x, spread of a pair's log ratio {100*sd:.1f}%, "
          f"rounds for a 95% interval of +-10%: {rounds_for(sd)}; autocorrelation of successive transfers {autocorr(resid):+.2f}")
    return sd

for name, sizes in lengths.items():
    rows = {False: [], True: []}
    for _ in range(pairs):
        for pinned in (False, True):
            for proto in ("h1", "h2c"):
                rows[pinned].append(transfer(proto, sizes[proto], pinned))
    sd = {}
    for pinned in (False, True):
        how = "pinned: server on the last CPU, client on CPU 0" if pinned else "unpinned"
        print(f"{name} transfers, {how} ({pairs} pairs, h1 {sizes['h1']}, h2c {sizes['h2c']}):")
        sd[pinned] = summary(name, sizes, rows[pinned])
    print(f"  pinning: spread of a pair's log ratio {100*sd[False]:.1f}% -> {100*sd[True]:.1f}% ({sd[True]/sd[False]:.2f}x), "
          f"rounds for +-10%: {rounds_for(sd[False])} -> {rounds_for(sd[True])}")
PY
