#!/usr/bin/env bash
# Runs every native Go fuzz test in the repository for a while each
# (default 1m; CI runs them for seconds). New failing inputs land in the
# package's testdata/fuzz/ and should be committed with the fix.
#
#   scripts/fuzz.sh [TIME]      e.g. scripts/fuzz.sh 10m
set -euo pipefail
cd "$(dirname "$0")/.."
time=${1:-1m}
status=0
while IFS=: read -r file name; do
	pkg=./$(dirname "$file")
	echo "== $name ($pkg, $time)"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "$time" "$pkg"; then
		status=1
	fi
done < <(grep -rHo --include='*_test.go' '^func Fuzz[A-Za-z0-9_]*' . | sed 's#^\./##; s#:func #:#' | sort)
exit $status
