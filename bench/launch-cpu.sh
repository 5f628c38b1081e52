#!/usr/bin/env bash
# CPU per launched job: the user+system CPU that every Corral process (controller, node daemons,
# node launchers, each job's supervisor and the job itself) spends per job of a `sbatch
# --array=1-JOBS --wrap true` on 4 nodes x 8 CPUs, from the submission until the queue is empty.
#   bench/launch-cpu.sh [JOBS] [ROUNDS]   (default 1000 and 3; needs root and cgroup v1 cpuacct;
#                                         CORRAL_SKIP_BUILD=1: use build/lib as it is)
# The cluster starts inside a cpuacct cgroup of its own, so everything it forks is counted there,
# including processes the kernel reparents (supervisors) and the jobs' cgroups (children of the
# daemons' cgroup: cpuacct charges every ancestor). The submitting and polling commands run in a
# second cgroup, reported apart. Round 1 is a cold cluster, later rounds a warm one (JIT).
# The figure does not depend on the other load on the machine, unlike a wall-clock rate.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:-1000}
rounds=${2:-3}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests -Dexec.skip=true package
. libexec/find-java.sh; corral_find_java
acct=/sys/fs/cgroup/cpuacct
[ -f "$acct/cpuacct.usage" ] || { echo "no cgroup v1 cpuacct at $acct" >&2; exit 1; }
dir=$(mktemp -d /tmp/corral-cpu-XXXX); chmod 755 "$dir"
port=$((32000 + RANDOM % 2000))
cg=$acct/corral-bench-$$
mkdir "$cg" "$cg/cluster" "$cg/driver"
cleanup() {
  CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null 2>&1 || true
  echo $$ > "$acct/cgroup.procs" 2>/dev/null || true
  for p in $(cat "$cg/cluster/cgroup.procs" "$cg/driver/cgroup.procs" 2>/dev/null); do [ "$p" = $$ ] || kill "$p" 2>/dev/null || true; done
  sleep 0.5
  find "$cg" -depth -type d -exec rmdir {} \; 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
( echo "$BASHPID" > "$cg/cluster/cgroup.procs"
  CORRAL_SKIP_BUILD=1 exec ./corral up --dir "$dir/c" --port-base "$port" --nodes 4 --cpus 8 >/dev/null )
echo $$ > "$cg/driver/cgroup.procs"
export SLURM_CONF=$dir/c/slurm.conf
ns() { cat "$1/cpuacct.usage"; }
echo "== Corral: sbatch --array=1-$jobs --wrap true, 4 nodes x 8 CPUs, CPU per job (cpuacct)"
for r in $(seq "$rounds"); do
  c0=$(ns "$cg/cluster"); d0=$(ns "$cg/driver"); s=$(date +%s%N)
  ( cd "$dir" && "$here/bin/sbatch" -o /dev/null --array=1-"$jobs" --wrap true >/dev/null )
  while [ -n "$("$here/bin/squeue" -h -o %i -t PD,R,CG 2>/dev/null | head -1)" ]; do sleep 0.5; done
  e=$(date +%s%N); c1=$(ns "$cg/cluster"); d1=$(ns "$cg/driver")
  awk -v r="$r" -v n="$jobs" -v c=$((c1 - c0)) -v d=$((d1 - d0)) -v w=$((e - s)) 'BEGIN {
    printf "round %d: cluster %.2f ms CPU/job (%.1f s CPU), commands %.1f s CPU, wall %.1f s (%.1f jobs/s, machine shared)\n",
      r, c / 1e6 / n, c / 1e9, d / 1e9, w / 1e9, n / (w / 1e9) }'
done
