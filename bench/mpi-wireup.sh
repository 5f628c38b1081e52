#!/usr/bin/env bash
# `srun --mpi=pmi2 -N4 -n32` of an MPICH hello (MPI_Init, a barrier, MPI_Finalize: the PMI
# wire-up and its fences included) wall time, on Corral and on the reference Slurm 22.05 in the
# same run; `srun -N4 -n32 true` beside it shows what the wire-up adds.
#   bench/mpi-wireup.sh [RUNS] [TASKS]  (default 10 runs, 32 tasks; needs root and Debian's mpich;
#                                     SKIP_REFERENCE=1: Corral only; REFERENCE_CONF: the
#                                     reference's slurm.conf, default /etc/slurm/slurm.conf;
#                                     CORRAL_SKIP_BUILD=1: use build/lib as it is)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-10}
tasks=${2:-32}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=$((30000 + RANDOM % 2000))
trap 'CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null; rm -rf "$dir"' EXIT
cpus=$(( (tasks + 3) / 4 ))
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 4 --cpus "$cpus" >/dev/null
cat > "$dir/hello.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
C
mpicc.mpich -o "$dir/hello" "$dir/hello.c"
export UCX_TLS=tcp,self  # as real nodes would talk (MpiWireUpTest says why)

. "$here/bench/time-runs.sh"
cd "$dir"
echo "== Corral: srun --mpi=pmi2 -N4 -n$tasks hello"
SLURM_CONF="$dir/c/slurm.conf" time_runs "$here/bin/srun" --mpi=pmi2 -N4 -n"$tasks" "$dir/hello"
echo "== Corral: srun -N4 -n$tasks true"
SLURM_CONF="$dir/c/slurm.conf" time_runs "$here/bin/srun" -N4 -n"$tasks" true
if [ -z "${SKIP_REFERENCE:-}" ] && [ -x /usr/bin/srun ]; then
  ref=${REFERENCE_CONF:-/etc/slurm/slurm.conf}
  echo "== Slurm 22.05 (reference): srun --mpi=pmi2 -N4 -n$tasks hello"
  SLURM_CONF="$ref" time_runs /usr/bin/srun --mpi=pmi2 -N4 -n"$tasks" "$dir/hello"
  echo "== Slurm 22.05 (reference): srun -N4 -n$tasks true"
  SLURM_CONF="$ref" time_runs /usr/bin/srun -N4 -n"$tasks" true
fi
