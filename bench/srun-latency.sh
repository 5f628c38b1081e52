#!/usr/bin/env bash
# `srun -N4 -n32 true` wall time, from the command's start to its exit (an allocation, a step of
# 32 tasks on 4 nodes, the release), on Corral and on the reference Slurm in the same run.
#   bench/srun-latency.sh [RUNS]      (default 10; needs root; SKIP_REFERENCE=1: Corral only;
#                                     CORRAL_SKIP_BUILD=1: use build/lib as it is)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-10}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=$((30000 + RANDOM % 2000))
trap 'CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null; rm -rf "$dir"' EXIT
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 4 --cpus 8 >/dev/null

. "$here/bench/time-runs.sh"
cd "$dir"
echo "== Corral: srun -N4 -n32 true"
SLURM_CONF="$dir/c/slurm.conf" time_runs "$here/bin/srun" -N4 -n32 true
if [ -z "${SKIP_REFERENCE:-}" ] && [ -x /usr/bin/srun ]; then
  echo "== Slurm 22.05 (reference): srun -N4 -n32 true"
  time_runs env -u SLURM_CONF /usr/bin/srun -N4 -n32 true
fi
