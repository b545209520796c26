#!/usr/bin/env bash
# Go versions side by side: `httpvs run --go` over the latest patch release
# of each Go from 1.22 to 1.27, each toolchain building its own server and
# client (Go as shipped), download and small-sequential over h1 and h2c.
# Prints the run's report, then per toolchain the h2c/h1 download ratio
# with its 95% interval to three decimals (golang/go#47840 release by
# release) and what its h2c ran on (x/net's http2 before go1.24).
# Toolchains are fetched once through the module proxy (~70 MB each).
#
#   bench/goversions.sh [VERSIONS] [extra httpvs run flags...]
#   default VERSIONS: 1.22.12,1.23.12,1.24.13,1.25.14,1.26.11,1.27.4
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
record_to goversions "$@"
VERSIONS=${1:-1.22.12,1.23.12,1.24.13,1.25.14,1.26.11,1.27.4}
shift $(( $# > 0 ? 1 : 0 )) || true
command -v python3 >/dev/null || { echo "bench/goversions.sh: python3 is needed" >&2; exit 1; }

bin=$(mktemp -d)/httpvs
go build -o "$bin" ./cmd/httpvs
out=$(mktemp -d)
trap 'rm -rf "$out" "$(dirname "$bin")"' EXIT
start=$(date +%s)
status=0
"$bin" run --go "$VERSIONS" --scenarios download,small-sequential --protocols h1,h2c --out "$out" "$@" || status=$?
echo "took $(( $(date +%s) - start )) s (toolchains fetched and built included, when not cached)"
python3 - "$out"/*/results.json <<'PY'
import json, sys
res = json.load(open(sys.argv[1]))
gv = res["go_versions"]
print("\nh2c/h1 download ratio per toolchain (both ends built by it), 95% interval, rounds paired:")
print(f"{'toolchain':<12}{'binary':<12}{'ratio':>7}  {'interval':<16}{'rounds':>7}  h2c over")
for tc in gv["toolchains"]:
    name = tc.get("toolchain") or tc["asked"]
    if tc.get("error") and not tc.get("binary_go"):
        print(f"{name:<12}not measured: {tc['error']}")
        continue
    cell = next((c for c in gv["cells"] if c["toolchain"] == name and c["scenario"] == "download" and c["protocol"] == "h2c"), None)
    iv = cell and cell.get("vs_h1")
    if not iv:
        print(f"{name:<12}{tc.get('binary_go',''):<12}no ratio")
        continue
    print(f"{name:<12}{tc['binary_go']:<12}{iv['ratio']:>7.3f}  [{iv['low']:.3f}, {iv['high']:.3f}]  {iv['pairs']:>6}  {tc.get('h2c','')}")
PY
exit $status
