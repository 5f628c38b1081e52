#!/usr/bin/env bash
# Held-job flood: the controller's memory, submission rate, snapshot time and query latencies as
# the queue grows (bench/README.md; results in docs/BENCHMARKS.md, "Scale").
#   bench/scale/flood.sh [STEPS]            STEPS: queue sizes, default "1000 10000 100000"
# Environment: CORRAL_SKIP_BUILD=1 (use build/lib as it is), PORT_BASE (default random),
# ENV_BYTES (default 5120: what sbatch exports from a login shell), REF=DIR (a private reference
# Slurm, slurm-private.sh's, flooded the same way with sbatch from 4 shells up to REF_MAX jobs,
# default 10000), CORRAL_SLURMCTLD_HEAP (else derived from MaxJobCount, 200000 in `corral up`).
# Each job: held, `#!/bin/sh true`, the same ENV_BYTES environment. At each size: controller RSS
# and heap after a full GC (per job, over the empty controller's), the step's submission rate
# (16 clients over the RPC API, each waiting for its fsynced acknowledgement), the last snapshot's
# time from the log, and the median of 3 runs of `squeue`, `squeue -j ID`, `squeue -u nobody`
# (whole commands, JVM start included, output to /dev/null). One job in a hundred is nobody's,
# the others root's: -u asks for a user's few jobs in a long queue.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
steps=${1:-"1000 10000 100000"}
env_bytes=${ENV_BYTES:-5120}
cd "$here"
if [ -z "${CORRAL_SKIP_BUILD:-}" ]; then
  CORRAL_TRAIN_OFFLINE=1 ./mvnw -B -q -DskipTests package
fi
./mvnw -B -q -o -pl bench -am -DskipTests compile >/dev/null
. libexec/find-java.sh; corral_find_java
jbin=$CORRAL_JAVA_HOME/bin
dir=$(mktemp -d /tmp/corral-flood-XXXX); chmod 755 "$dir"
port=${PORT_BASE:-$((30000 + RANDOM % 20000))}
trap 'CORRAL_SKIP_BUILD=1 ./corral down --dir "$dir/c" >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 1 >/dev/null
ctld=$(cat "$dir/c/slurmctld.pid")
sock="$dir/c/slurmctld-$port.sock"
. "$dir/c/env" # Corral's bin/ first on PATH, SLURM_CONF
user=$(id -un)

median3() { # the median wall time in ms of three runs of "$@"
  local t=()
  for _ in 1 2 3; do
    local s; s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; t+=($(( ($(date +%s%N) - s) / 1000000 )))
  done
  printf '%s\n' "${t[@]}" | sort -n | sed -n 2p
}
heap_kb() { # used heap after a full collection, KiB
  "$jbin/jcmd" "$1" GC.run >/dev/null; "$jbin/jcmd" "$1" GC.run >/dev/null
  "$jbin/jcmd" "$1" GC.heap_info | awk '/ total / { for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i+1); sub(/K,?/, "", v); sum += v } }
    END { print sum }'
}
rss_kb() { awk '/VmRSS/ { print $2 }' "/proc/$1/status"; }

base_rss=$(rss_kb "$ctld"); base_heap=$(heap_kb "$ctld")
echo "Corral: slurmctld $(tr '\0' ' ' < "/proc/$ctld/cmdline" | grep -o -- '-Xmx[^ ]*'), empty: RSS ${base_rss} KiB, heap ${base_heap} KiB"
printf '%-8s %-10s %-12s %-12s %-12s %-14s %-10s %-10s %-10s\n' jobs rate/s "RSS MiB" "RSS/job" "heap/job" "snapshot" squeue "-j" "-u"
done_jobs=0
for n in $steps; do
  add=$((n - done_jobs)); few=$(( add / 100 > 0 ? add / 100 : 1 ))
  rate=$("$jbin/java" --sun-misc-unsafe-memory-access=allow -cp "build/lib/*:bench/target/classes" org.corral.bench.SubmitLoad "$sock" 16 $((add - few)) \
    flood "$env_bytes" | grep -o 'rate=[0-9]*' | cut -d= -f2)
  runuser -u nobody -- "$jbin/java" --sun-misc-unsafe-memory-access=allow -cp "build/lib/*:bench/target/classes" org.corral.bench.SubmitLoad "$sock" 1 "$few" \
    flood "$env_bytes" >/dev/null
  done_jobs=$n
  rss=$(rss_kb "$ctld"); heap=$(heap_kb "$ctld")
  snap=$(grep -o 'snapshot written at journal index [0-9]* ([0-9]* jobs) in [0-9]* ms' "$dir/c/log/slurmctld.log" | tail -1 \
    | sed 's/.*(\([0-9]*\) jobs) in \([0-9]*\) ms/\2 ms@\1/' || true)
  some=$(squeue -h -o %i | sed -n "$((n / 2))p")
  printf '%-8s %-10s %-12s %-12s %-12s %-14s %-10s %-10s %-10s\n' "$n" "$rate" $((rss / 1024)) \
    "$(( (rss - base_rss) * 1024 / n )) B" "$(( (heap - base_heap) * 1024 / n )) B" "${snap:--}" \
    "$(median3 squeue)" "$(median3 squeue -j "$some")" "$(median3 squeue -u nobody)"
done
echo "job_data files: $(find "$dir/c/state/job_data" -type f | wc -l), journal+snapshots: $(du -sh "$dir/c/state/journal" | cut -f1)"

if [ -n "${REF:-}" ]; then
  ref_max=${REF_MAX:-10000}
  export SLURM_CONF="$REF/slurm.conf"
  rctld=$(cat "$REF/run/slurmctld.pid")
  /usr/bin/scancel -u "$user" 2>/dev/null || true; /usr/bin/scancel -u nobody 2>/dev/null || true; sleep 3
  rbase=$(rss_kb "$rctld")
  for i in $(seq 0 $((env_bytes / 110))); do export "BENCH_VAR_$i=$(printf 'v%.0s' $(seq 1 100))"; done
  echo "Slurm 22.05 (sbatch -H --wrap true from 4 shells, the same environment)"
  printf '%-8s %-10s %-12s %-12s %-10s %-10s %-10s\n' jobs rate/s "RSS MiB" "RSS/job" squeue "-j" "-u"
  rdone=0
  for n in $steps; do
    [ "$n" -gt "$ref_max" ] && break
    add=$((n - rdone)); s=$(date +%s%N)
    few=$(( add / 100 > 0 ? add / 100 : 1 ))
    for k in 1 2 3 4; do
      (for _ in $(seq 1 $(((add - few) / 4))); do /usr/bin/sbatch -H -o /dev/null --wrap true >/dev/null; done) &
    done
    (cd /tmp && for _ in $(seq 1 "$few"); do
      runuser -u nobody -- /usr/bin/sbatch -H -o /dev/null --wrap true >/dev/null; done) &
    wait
    secs_ms=$(( ($(date +%s%N) - s) / 1000000 )); rdone=$n
    rss=$(rss_kb "$rctld")
    some=$(/usr/bin/squeue -h -o %i | sed -n "$((n / 2))p")
    printf '%-8s %-10s %-12s %-12s %-10s %-10s %-10s\n' "$n" $(( add * 1000 / (secs_ms + 1) )) $((rss / 1024)) \
      "$(( (rss - rbase) * 1024 / n )) B" "$(median3 /usr/bin/squeue)" "$(median3 /usr/bin/squeue -j "$some")" \
      "$(median3 /usr/bin/squeue -u nobody)"
  done
  /usr/bin/scancel -u "$user" 2>/dev/null || true; /usr/bin/scancel -u nobody 2>/dev/null || true
fi
