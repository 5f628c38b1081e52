#!/usr/bin/env bash
# Launch rate: 1,000 jobs of `true` on 4 nodes x 8 CPUs, from the first submission until the
# queue is empty, on Corral and on the reference Slurm in the same run.
#   bench/launch-throughput.sh [JOBS]      (default 1000; needs root; SKIP_REFERENCE=1: Corral only;
#                                          CORRAL_SKIP_BUILD=1: use build/lib as it is;
#                                          WARMUP=N: N untimed jobs first, as on a cluster already up;
#                                          MODE=single: JOBS single jobs by 4 clients instead of an array)
# Corral: one job array of JOBS tasks submitted through the RPC API (SubmitLoad ... array: what
# `sbatch --array=1-JOBS` sends, without the command's JVM), timed until none of its tasks is
# pending, running or completing. Slurm: one `sbatch --array=1-JOBS` (its fastest way to queue that many).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:-1000}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
. libexec/find-java.sh; corral_find_java
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=$((30000 + RANDOM % 2000))
trap 'CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null; rm -rf "$dir"' EXIT
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 4 --cpus 8 >/dev/null
how=array; what="one array of $jobs tasks (API)"
[ "${MODE:-}" = single ] && { how=run; what="$jobs jobs (API, 4 clients)"; }
echo "== Corral: $what, 4 nodes x 8 CPUs"
# CPU of each daemon (its own, and its reaped children's), and of the whole machine: the jobs'
# supervisors are reaped by the kernel, so only the machine's total counts them (and the load
# generator's JVM).
cpu() { for f in "$dir"/c/slurmctld.pid "$dir"/c/slurmd-*.pid; do
  awk -v n="$(basename "$f" .pid)" '{ print n, $14 + $15, $16 + $17 }' "/proc/$(cat "$f")/stat"; done
  awk '$1 == "cpu" { print "machine", $2 + $3 + $4 + $7 + $8 + $9, 0 }' /proc/stat; }
if [ "${WARMUP:-0}" -gt 0 ]; then
  # A cluster that has been running: the daemons' JIT compilers have seen the work already.
  echo "   (after an untimed warm-up of $WARMUP jobs)"
  "$CORRAL_JAVA_HOME/bin/java" -XX:TieredStopAtLevel=1 -cp "build/lib/*:bench/target/classes" \
    org.corral.bench.SubmitLoad "$dir/c/slurmctld-$port.sock" 4 "$WARMUP" "$how" >/dev/null
fi
cpu >"$dir/cpu.before"
"$CORRAL_JAVA_HOME/bin/java" -XX:TieredStopAtLevel=1 -cp "build/lib/*:bench/target/classes" \
  org.corral.bench.SubmitLoad "$dir/c/slurmctld-$port.sock" 4 "$jobs" "$how"
cpu >"$dir/cpu.after"
tick=$(getconf CLK_TCK)
paste "$dir/cpu.before" "$dir/cpu.after" | awk -v n="$jobs" -v t="$tick" '
  $1 == "machine" { printf "  %-12s %6.2f ms of CPU per job, everything on the machine\n", $1, ($5 - $2) * 1000 / t / n; next }
  { own = ($5 - $2) * 1000 / t; kids = ($6 - $3) * 1000 / t; so += own; sk += kids
    printf "  %-12s own %6.2f ms/job   children %6.2f ms/job\n", $1, own / n, kids / n }
  END { printf "  %-12s own %6.2f ms/job   children %6.2f ms/job\n", "daemons", so / n, sk / n }'
CORRAL_SKIP_BUILD=1 ./corral down --dir "$dir/c" >/dev/null

if [ -z "${SKIP_REFERENCE:-}" ] && [ -x /usr/bin/sbatch ] && env -u SLURM_CONF /usr/bin/sinfo -h >/dev/null 2>&1; then
  echo "== Slurm 22.05 (reference): sbatch --array=1-$jobs, 4 nodes x 8 CPUs"
  ref=$(mktemp -d /tmp/corral-bench-ref-XXXX); chmod 777 "$ref"
  start=$(date +%s.%N)
  # Only this array's tasks count: others' jobs (held ones too) may share the reference.
  array=$(cd "$ref" && env -u SLURM_CONF /usr/bin/sbatch --parsable -o /dev/null --array=1-"$jobs" --wrap true)
  while [ -n "$(env -u SLURM_CONF /usr/bin/squeue -h -o %i -j "${array%%;*}" -t PD,R,CG 2>/dev/null | head -1)" ]; do
    sleep 0.2
  done
  end=$(date +%s.%N)
  awk -v s="$start" -v e="$end" -v n="$jobs" 'BEGIN { printf "all %d tasks done in %.1f s: %.1f tasks/s\n", n, e - s, n / (e - s) }'
  rm -rf "$ref"
fi
