#!/usr/bin/env bash
# End-to-end: 1,000 `sbatch --wrap true` from 4 parallel shells, timed until the queue is empty,
# on Corral and on the reference Slurm (4 nodes x 8 CPUs each) in the same run.
#   bench/e2e-sbatch.sh [JOBS]   (default 1000; needs root; stops the reference Slurm at the end)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:-1000}
per=$((jobs / 4))
work=$(mktemp -d /tmp/corral-e2e-bench-XXXX); chmod 755 "$work"

run() { # $1 = label, $2 = bin dir; SLURM_CONF must be set for Corral
  local bin=$2 t0 t1
  cd "$work"
  t0=$(date +%s.%N)
  for s in 1 2 3 4; do
    ( for _ in $(seq "$per"); do "$bin/sbatch" -Q -o /dev/null --wrap true >/dev/null; done ) &
  done
  wait
  t1=$(date +%s.%N)
  while [ -n "$("$bin/squeue" -h -o %i | head -n 1)" ]; do sleep 0.2; done
  local t2; t2=$(date +%s.%N)
  echo "$1: submitted $((per * 4)) in $(echo "$t1 - $t0" | bc) s; queue empty after $(echo "$t2 - $t0" | bc) s; $(echo "scale=1; $((per * 4)) / ($t2 - $t0)" | bc) jobs/s"
}

# Corral (its standard ports are Slurm's: run it on its own base while the reference runs)
cd "$here"; [ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
port=$((30000 + RANDOM % 20000))
CORRAL_SKIP_BUILD=1 ./corral up --dir "$work/corral" --port-base "$port" >/dev/null
trap 'cd "$here"; CORRAL_SKIP_BUILD=1 ./corral down --dir "$work/corral" >/dev/null; rm -rf "$work"' EXIT
SLURM_CONF=$work/corral/slurm.conf run corral "$here/bin"

# The reference Slurm 22.05
"$here/../shared/peer/slurm-reference.sh" start >/dev/null
run slurm-22.05 /usr/bin
