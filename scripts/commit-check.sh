#!/usr/bin/env bash
# Checks commit subjects from a base commit on (Go's convention): a subject
# is "pkg: what changed" (or "pkg1, pkg2: ..."), at most 72 characters,
# followed by a blank line when there is a body. Merges may say what they
# bring without a package prefix, but stay within 72 characters.
#
# Usage: scripts/commit-check.sh [BASE]   (default: the commit this rule
# started from; earlier history is left as it is)
set -euo pipefail
cd "$(dirname "$0")/.."

base=${1:-534be93c066fccb538454eddb747c4f85cb8138a}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
  # A shallow clone may lack the base: check what it has.
  echo "commit-check: base $base not in this clone; checking the last commit only"
  range=(-1 HEAD)
else
  range=("$base..HEAD")
fi

# Commits other branches had already merged when they were found: the
# fix would rewrite shared history. Keep this list short.
known="878ab8ca8 071a5018c"

bad=0
while IFS= read -r -d '' rec; do
  sha=${rec%%$'\x1f'*}
  rest=${rec#*$'\x1f'}
  parents=${rest%%$'\x1f'*}
  msg=${rest#*$'\x1f'}
  subject=$(printf '%s\n' "$msg" | sed -n 1p)
  second=$(printf '%s\n' "$msg" | sed -n 2p)
  why=""
  if [[ " $known " == *" ${sha:0:9} "* ]]; then
    continue
  elif [ ${#subject} -gt 72 ]; then
    why="subject is ${#subject} characters (at most 72)"
  elif [ -n "$second" ]; then
    why="no blank line between subject and body"
  elif [ "$(wc -w <<<"$parents")" -lt 2 ] &&
    ! grep -Eq '^[A-Za-z0-9_./{}*-]+(, ?[A-Za-z0-9_./{}*-]+)*: [^ ]' <<<"$subject"; then
    why='subject is not "pkg: what changed"'
  fi
  if [ -n "$why" ]; then
    printf '%s %s\n    %s\n' "${sha:0:9}" "$subject" "$why"
    bad=$((bad + 1))
  fi
done < <(git log -z --format='%H%x1f%P%x1f%B' "${range[@]}")

if [ "$bad" -gt 0 ]; then
  echo "commit-check: $bad commit(s) break the convention (pkg: what changed, at most 72 characters, the why in the body)"
  exit 1
fi
echo "commit-check: subjects ok"
