#!/usr/bin/env bash
# Offline checks of deploy/k8s (no cluster is reached): every manifest
# parses, names its apiVersion, kind and name; every httpvs subcommand and
# flag in a container's args exists in the binary given (httpvs CMD -h);
# kustomize builds the directory (kubectl kustomize, offline) when kubectl
# is installed; run.sh parses.
#
#   scripts/k8s-check.sh PATH/TO/httpvs
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/k8s-check.sh PATH/TO/httpvs}
if ! python3 -c 'import yaml' 2>/dev/null; then
  if [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && apt-get install -y -qq python3-yaml >/dev/null
  else
    echo "scripts/k8s-check.sh: needs PyYAML (apt-get install python3-yaml)" >&2; exit 1
  fi
fi
python3 - "$bin" deploy/k8s/*.yaml <<'PY'
import subprocess, sys, yaml
bin, files = sys.argv[1], sys.argv[2:]
helps, bad, docs = {}, 0, 0
def flags_of(cmd):
    if cmd not in helps:
        out = subprocess.run([bin, cmd, "-h"], capture_output=True, text=True).stdout
        # "  -c, --conns int": every spelling on the line, up to the type
        names = set()
        for l in out.splitlines():
            if not l.startswith("  -"):
                continue
            for tok in l.split():
                if not tok.startswith("-"):
                    break
                names.add(tok.rstrip(",").lstrip("-"))
        helps[cmd] = names
    return helps[cmd]
for f in files:
    for doc in yaml.safe_load_all(open(f)):
        if doc is None:
            continue
        docs += 1
        if f.endswith("kustomization.yaml"):
            continue
        for key in ("apiVersion", "kind"):
            if not doc.get(key):
                print(f"{f}: a document without {key}"); bad += 1
        if not doc.get("metadata", {}).get("name"):
            print(f"{f}: {doc.get('kind')} without metadata.name"); bad += 1
        spec = doc.get("spec", {}).get("template", {}).get("spec", {})
        for c in spec.get("containers", []):
            if not c.get("image"):
                print(f"{f}: container {c.get('name')} without an image"); bad += 1
            args = c.get("args", [])
            if not args:
                continue
            cmd, known = args[0], flags_of(args[0])
            if not known:
                print(f"{f}: httpvs has no command {cmd!r}"); bad += 1
            for a in args[1:]:
                if a.startswith("-"):
                    name = a.lstrip("-").split("=")[0]
                    if name not in known:
                        print(f"{f}: httpvs {cmd} has no flag {a.split('=')[0]}"); bad += 1
print(f"k8s manifests: {docs} documents in {len(files)} files, {bad} problems")
sys.exit(1 if bad else 0)
PY
if command -v kubectl >/dev/null; then
  kubectl kustomize deploy/k8s >/dev/null
  echo "kubectl kustomize deploy/k8s: builds"
else
  echo "kubectl not installed: kustomize build skipped"
fi
bash -n deploy/k8s/run.sh
