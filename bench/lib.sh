# Sourced by the bench/ scripts: record_to NAME ARGS... sends the script's
# standard output to the terminal and to docs/measurements/NAME-DATE.md,
# headed by the date, commit, machine and command (with the script's
# NAME_* environment settings, H3LOAD_RATE for h3load), so that every figure
# the README and docs/ cite has its provenance. Set BENCH_NO_RECORD=1 to skip the file.
record_to() {
  local name=$1; shift
  [ -n "${BENCH_NO_RECORD:-}" ] && return 0
  local dir date file
  dir="$(git rev-parse --show-toplevel)/docs/measurements"
  date=$(date -u +%Y-%m-%dT%H%MZ)
  mkdir -p "$dir"
  file="$dir/$name-$date.md"
  {
    echo "# bench/$name.sh, $date"
    echo
    echo "- commit: $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!docs/measurements' || echo ' (with uncommitted changes)')"
    echo "- machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(uname -sr), $(go version | awk '{print $3}')"
    echo "- command: $(env | grep -E "^${name^^}_[A-Z_]*=" | sort | tr '\n' ' ')bench/$name.sh $*"
    echo
  } >"$file"
  # Indented four spaces: a Markdown code block that needs no closing line.
  exec > >(tee >(sed -u 's/^/    /' >>"$file"))
  echo "bench/$name.sh: recording to ${file#"$(git rev-parse --show-toplevel)/"}" >&2
}

# peer_setup builds httpvs ($bin) and bench/peerserver into a temporary
# directory ($tmp), and on exit closes the reference servers' stdin
# (peerserver stops its server when it closes), stops every process the
# script recorded in pids and removes $tmp.
peer_setup() {
  tmp=$(mktemp -d)
  bin=$tmp/httpvs
  go build -o "$bin" ./cmd/httpvs
  go build -o "$tmp/peerserver" ./bench/peerserver
  pids=()
  trap peer_cleanup EXIT
}
peer_cleanup() {
  exec 3>&- 4>&- 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
# start_peer NAME FD [SIZE...]: starts reference server NAME (h2o,
# caddy, ...) through package peers on loopback, serving payloads of the
# SIZEs at /bytes/SIZE, its stdin held open on descriptor FD, and waits
# for its line of URLs.
start_peer() {
  mkfifo "$tmp/$1-stdin"
  "$tmp/peerserver" "$1" "${@:3}" <"$tmp/$1-stdin" >"$tmp/$1.json" &
  pids+=($!)
  eval "exec $2>\"$tmp/$1-stdin\""
  for _ in $(seq 100); do [ -s "$tmp/$1.json" ] && break; sleep 0.1; done
}
# peer_url NAME KEY: the URL server NAME serves KEY (h1, h2, h3) at.
peer_url() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["urls"][sys.argv[2]])' "$tmp/$1.json" "$2"; }
# need_oha: puts oha, the HTTP/3 load peer, on PATH, installing it from
# crates.io when it is missing (cargo, --locked: its newest dependencies
# may want a newer rustc than the machine's; with its http3 feature) into
# a cache kept across runs. Compiling it takes minutes (about twenty on
# two busy cores). Returns 1 with the reason in $oha_missing when it
# cannot be had.
need_oha() {
  local root=${XDG_CACHE_HOME:-$HOME/.cache}/httpvs-bench/oha
  PATH=$root/bin:$PATH
  oha_missing=
  command -v oha >/dev/null && return 0
  if ! command -v cargo >/dev/null; then
    oha_missing="no cargo to install it with"
    return 1
  fi
  mkdir -p "$root"
  echo "installing oha --features http3 into $root (cargo install --locked; minutes)" >&2
  cargo install oha --locked --features http3 --root "$root" >"$root.log" 2>&1 ||
    { oha_missing="cargo install oha --locked --features http3 failed: $(tail -1 "$root.log")"; return 1; }
}
