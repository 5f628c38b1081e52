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
# Below the ephemeral range (32768+), where other clients' connections would make a port look busy.
port=$((22000 + RANDOM % 4000))
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
  CORRAL_SKIP_BUILD=1 exec ./corral up --dir "$dir/c" --port-base "$port" --nodes 4 --cpus 8 >"$dir/up.out" 2>&1 ) \
  || { cat "$dir/up.out" >&2; exit 1; }
echo $$ > "$cg/driver/cgroup.procs"
export SLURM_CONF=$dir/c/slurm.conf
ns() { cat "$1/cpuacct.usage"; }
# The daemons' own CPU in ns (utime + stime of each JVM); the rest of the cluster's is the node
# launchers', the supervisors' and the jobs'.
tck=$(getconf CLK_TCK)
daemon() { awk -v t="$tck" '{ sub(/^.*\) /, ""); printf "%.0f\n", ($12 + $13) * 1e9 / t }' "/proc/$(cat "$dir/c/$1.pid")/stat"; }
daemons() { echo "ctld $(daemon slurmctld) slurmd $(( $(daemon slurmd-n1) + $(daemon slurmd-n2) + $(daemon slurmd-n3) + $(daemon slurmd-n4) )) other $(( $(daemon slurmdbd) + $(daemon slurmrestd) ))"; }
echo "== Corral: sbatch --array=1-$jobs --wrap true, 4 nodes x 8 CPUs, CPU per job (cpuacct)"
for r in $(seq "$rounds"); do
  c0=$(ns "$cg/cluster"); d0=$(ns "$cg/driver"); p0=$(daemons); s=$(date +%s%N)
  ( cd "$dir" && "$here/bin/sbatch" -o /dev/null --array=1-"$jobs" --wrap true >/dev/null )
  while [ -n "$("$here/bin/squeue" -h -o %i -t PD,R,CG 2>/dev/null | head -1)" ]; do sleep 0.5; done
  e=$(date +%s%N); c1=$(ns "$cg/cluster"); d1=$(ns "$cg/driver"); p1=$(daemons)
  awk -v r="$r" -v n="$jobs" -v c=$((c1 - c0)) -v d=$((d1 - d0)) -v w=$((e - s)) -v p0="$p0" -v p1="$p1" 'BEGIN {
    split(p0, a, " "); split(p1, b, " ")
    ctld = b[2] - a[2]; slurmd = b[4] - a[4]; other = b[6] - a[6]
    printf "round %d: cluster %.2f ms CPU/job (%.1f s CPU), commands %.1f s CPU, wall %.1f s (%.1f jobs/s, machine shared)\n",
      r, c / 1e6 / n, c / 1e9, d / 1e9, w / 1e9, n / (w / 1e9)
    printf "         slurmctld %.2f, 4 x slurmd %.2f, slurmdbd + slurmrestd %.2f, launchers + supervisors + jobs %.2f ms/job\n",
      ctld / 1e6 / n, slurmd / 1e6 / n, other / 1e6 / n, (c - ctld - slurmd - other) / 1e6 / n }'
done
