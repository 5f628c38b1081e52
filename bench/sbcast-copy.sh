#!/usr/bin/env bash
# `sbcast -f FILE` of a 64 MiB file into a running 2-node job, wall time from the command's start
# to its exit, on Corral and on the reference Slurm in the same run (nodes on this host, so both
# write the same path, as nodes sharing a file system would).
#   bench/sbcast-copy.sh [RUNS] [MIB]   (defaults 3 and 64; needs root; CORRAL_SKIP_BUILD=1: use
#                                        build/lib as it is; REFERENCE_CONF=FILE: the reference's
#                                        slurm.conf, default /etc/slurm/slurm.conf; SKIP_REFERENCE=1)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
mib=${2:-64}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=$((30000 + RANDOM % 2000))
jobs=()
cleanup() {
  for j in "${jobs[@]}"; do SLURM_CONF=${REFERENCE_CONF:-/etc/slurm/slurm.conf} /usr/bin/scancel "$j" 2>/dev/null || true; done
  CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 2 --cpus 4 >/dev/null
head -c $((mib << 20)) /dev/urandom > "$dir/src"
chmod 644 "$dir/src"

# Waits for job $2 of the cluster whose slurm.conf is $1 to run.
await_running() {
  for _ in $(seq 60); do
    [ "$(SLURM_CONF=$1 "$3" -h -j "$2" -o %T)" = RUNNING ] && return 0
    sleep 1
  done
  echo "job $2 did not start" >&2; exit 1
}
# Prints the median and the mean of RUNS copies with the sbcast given.
time_copies() {
  for i in $(seq "$runs"); do
    s=$(date +%s%N); "$@" -f "$dir/src" "$dir/copy" >/dev/null; e=$(date +%s%N)
    cmp -s "$dir/src" "$dir/copy" || { echo "copy $i differs" >&2; exit 1; }
    echo $(( (e - s) / 1000000 ))
  done | sort -n | awk '{ a[NR] = $1; t += $1 } END { printf "median %d ms, mean %d ms over %d runs\n", a[int((NR + 1) / 2)], t / NR, NR }'
}
conf=$dir/c/slurm.conf
job=$(SLURM_CONF=$conf "$here/bin/sbatch" --parsable -N2 --wrap 'sleep 600')
await_running "$conf" "$job" "$here/bin/squeue"
echo "== Corral: sbcast -f (${mib} MiB, 2 nodes)"
SLURM_CONF=$conf time_copies "$here/bin/sbcast" -j "$job"
rm -f "$dir/copy"
if [ -z "${SKIP_REFERENCE:-}" ] && [ -x /usr/bin/sbcast ]; then
  ref=${REFERENCE_CONF:-/etc/slurm/slurm.conf}
  rjob=$(SLURM_CONF=$ref /usr/bin/sbatch --parsable -N2 --wrap 'sleep 600')
  jobs+=("$rjob")
  await_running "$ref" "$rjob" /usr/bin/squeue
  echo "== Slurm 22.05 (reference): sbcast -f (${mib} MiB, 2 nodes)"
  SLURM_CONF=$ref time_copies /usr/bin/sbcast -j "$rjob"
fi
