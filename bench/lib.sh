# Sourced by the bench/ scripts: record_to NAME ARGS... sends the script's
# standard output to the terminal and to docs/measurements/NAME-DATE.md,
# headed by the date, commit, machine and command, so that every figure
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
    echo "- command: bench/$name.sh $*"
    echo
  } >"$file"
  # Indented four spaces: a Markdown code block that needs no closing line.
  exec > >(tee >(sed -u 's/^/    /' >>"$file"))
  echo "bench/$name.sh: recording to ${file#"$(git rev-parse --show-toplevel)/"}" >&2
}
