#!/usr/bin/env bash
# Runs the load Job against the server already applied (server.yaml),
# waits for it, collects each generator's JSON with kubectl logs and
# merges them with httpvs merge.
#
#   deploy/k8s/run.sh PARTS TOTAL_RATE DURATION [NAMESPACE]
#   e.g. deploy/k8s/run.sh 3 30000 60s httpvs
#
# Needs kubectl (pointed at the cluster) and httpvs on this machine.
set -euo pipefail
if [ $# -lt 3 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]] || ! [[ $2 =~ ^[0-9]+(\.[0-9]+)?k?$ ]]; then
  echo "usage: deploy/k8s/run.sh PARTS TOTAL_RATE DURATION [NAMESPACE], e.g. 3 30000 60s httpvs" >&2
  exit 2
fi
parts=$1 rate=$2 duration=$3 ns=${4:-default}
here=$(dirname "$0")
# Pods need time to be scheduled and pull the image: start 90 s from now.
start_at=$(date -u -d '+90 seconds' +%Y-%m-%dT%H:%M:%SZ)
kubectl -n "$ns" delete job httpvs-load --ignore-not-found
sed -e "s/START_AT_PLACEHOLDER/$start_at/" \
    -e "s/^  completions: .*/  completions: $parts/" -e "s/^  parallelism: .*/  parallelism: $parts/" \
    -e "s/{name: TOTAL_RATE, value: \"30000\"}/{name: TOTAL_RATE, value: \"$rate\"}/" -e "s/{name: PARTS, value: \"3\"}/{name: PARTS, value: \"$parts\"}/" \
    -e "s/{name: DURATION, value: \"60s\"}/{name: DURATION, value: \"$duration\"}/" \
    "$here/load-job.yaml" | kubectl -n "$ns" apply -f -
echo "generators start at $start_at" >&2
# Wait for success or failure: waiting for "complete" alone would sit out
# the whole timeout on a failed generator.
for _ in $(seq 1800); do
  state=$(kubectl -n "$ns" get job httpvs-load -o 'jsonpath={.status.conditions[?(@.status=="True")].type}')
  case "$state" in
    *Failed*) echo "deploy/k8s/run.sh: the load Job failed; nothing merged (a partial merge would look like the whole rate): kubectl -n $ns logs -l batch.kubernetes.io/job-name=httpvs-load" >&2; exit 1 ;;
    *Complete*) break ;;
  esac
  sleep 1
done
[[ "${state:-}" == *Complete* ]] || { echo "deploy/k8s/run.sh: the load Job did not finish in 30 minutes" >&2; exit 1; }
out=$(mktemp -d)
for pod in $(kubectl -n "$ns" get pods -l batch.kubernetes.io/job-name=httpvs-load -o name); do
  kubectl -n "$ns" logs "$pod" >"$out/${pod#pod/}.json"
done
httpvs merge "$out"/*.json
echo "parts in $out; httpvs merge --json $out/*.json for the merged result" >&2
