#!/usr/bin/env bash
# Metrics endpoint cost (issue 25): a scrape of /metrics/jobs (and the other endpoints) with JOBS
# held jobs queued, its wall time and the controller CPU it takes, and the submission rate with
# and without a scrape every second.
#   bench/metrics-scrape.sh [JOBS] [PHASE]     defaults 100000 and 20000
# Environment: CORRAL_SKIP_BUILD=1 (use build/lib as it is), PORT_BASE (default random).
# Steps: a private cluster from `corral up --config` (1 node, MetricsType=metrics/openmetrics,
# MaxJobCount=200000); JOBS-2*PHASE held jobs from 16 clients (SubmitLoad); PHASE more without a
# scraper, PHASE more with `curl /metrics/jobs` once a second; then 10 scrapes of each endpoint
# (median wall time, bytes, controller CPU per scrape from /proc/PID/stat).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:-100000}
phase=${2:-20000}
cd "$here"
if [ -z "${CORRAL_SKIP_BUILD:-}" ]; then
  CORRAL_TRAIN_OFFLINE=1 ./mvnw -B -q -DskipTests package
fi
./mvnw -B -q -o -pl bench -am -DskipTests compile >/dev/null
. libexec/find-java.sh; corral_find_java
dir=$(mktemp -d /tmp/corral-metrics-XXXX); chmod 755 "$dir"
port=${PORT_BASE:-$((30000 + RANDOM % 20000))}
scraper=
trap '[ -n "$scraper" ] && kill "$scraper" 2>/dev/null; CORRAL_SKIP_BUILD=1 ./corral down --dir "$dir/c" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
cat > "$dir/slurm.conf" <<CONF
ClusterName=metrics
MetricsType=metrics/openmetrics
MaxJobCount=200000
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=100
NodeName=n1 CPUs=4 RealMemory=4000 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 1 --config "$dir/slurm.conf" >/dev/null
ctld=$(cat "$dir/c/slurmctld.pid")
sock="$dir/c/slurmctld-$port.sock"
load() { "$CORRAL_JAVA_HOME/bin/java" --sun-misc-unsafe-memory-access=allow -cp "build/lib/*:bench/target/classes" \
  org.corral.bench.SubmitLoad "$sock" 16 "$1" | grep -o 'rate=[0-9]*/s.*'; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

echo "queue: $((jobs - 2 * phase)) held jobs: $(load $((jobs - 2 * phase)))"
echo "submitting $phase without a scraper:  $(load "$phase")"
(while true; do curl -s -o /dev/null "http://127.0.0.1:$port/metrics/jobs"; sleep 1; done) &
scraper=$!
echo "submitting $phase with a scrape of /metrics/jobs every second: $(load "$phase")"
kill "$scraper"; scraper=

printf '%-28s %-8s %-10s %-14s\n' endpoint bytes "wall ms" "ctld CPU ms"
for ep in jobs jobs-users-accts nodes partitions scheduler corral; do
  t=(); before=$(cpu_ticks "$ctld")
  for _ in $(seq 1 10); do
    t+=($(curl -s -o "$dir/out" -w '%{time_total}' "http://127.0.0.1:$port/metrics/$ep" | awk '{ printf "%d", $1 * 1000 }'))
  done
  cpu=$(( ($(cpu_ticks "$ctld") - before) * 1000 / hz / 10 ))
  printf '%-28s %-8s %-10s %-14s\n' "/metrics/$ep" "$(wc -c < "$dir/out")" \
    "$(printf '%s\n' "${t[@]}" | sort -n | sed -n 5p)" "$cpu"
done
grep -E '^slurm_jobs(_pending)? ' <(curl -s "http://127.0.0.1:$port/metrics/jobs")
