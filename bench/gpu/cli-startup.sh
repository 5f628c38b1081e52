#!/bin/bash
# CLI start-up on a machine other sessions do not share (a lent GPU node, with the bundle from
# make-bundle.sh): trains the class caches with the bundle's runtime, starts a 4-node cluster
# with 20 held jobs and prints the median and mean of RUNS runs of each command.
# Usage: cli-startup.sh [RUNS]
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-40}
. "$src/bench/gpu/install.sh"
"$home/libexec/corral-train" "$home/build" >/dev/null 2>&1
"$home/corral" up --dir "$home/cluster" --port-base 17817 >/dev/null 2>&1 || { echo "corral up failed"; exit 1; }
. "$home/cluster/env"
for _ in $(seq 1 20); do sbatch -H --wrap true >/dev/null; done
stats() { # stats COMMAND...: median and mean wall time over $runs runs, after 5 warm-up runs
  for _ in 1 2 3 4 5; do "$@" >/dev/null 2>&1; done
  for _ in $(seq 1 "$runs"); do
    t0=$(date +%s%N); "$@" >/dev/null 2>&1; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000 ))
  done | sort -n | awk '{a[NR]=$1; s+=$1} END {printf "median %.1f ms  mean %.1f ms  min %.1f ms\n", a[int((NR+1)/2)]/1000, s/NR/1000, a[1]/1000}'
}
echo "squeue --version:     $(stats squeue --version)"
echo "squeue (20 jobs):     $(stats squeue)"
echo "sbatch --wrap true:   $(stats sbatch -H --wrap true)"
"$home/corral" down --dir "$home/cluster" >/dev/null 2>&1
