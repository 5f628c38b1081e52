#!/usr/bin/env bash
# End-to-end: 1,000 `sbatch --wrap true` from 4 parallel shells, timed until the queue is empty,
# on Corral (through its command server, docs/adr/0007-resident-command-server.md, and with a JVM
# per command, CORRAL_COMMAND_SERVER=0) and on the reference Slurm (4 nodes x 8 CPUs each) in the
# same run. CPU: the submitting shells' and their commands' (user + system), plus the command
# server's for the server path (its threads' run time from /proc/PID/task/*/schedstat); the
# daemons' CPU is not counted.
#   bench/e2e-sbatch.sh [JOBS]   (default 1000; needs root; stops the reference Slurm at the end;
#                                 REFERENCE_DIR=DIR PORT_BASE=N: a private reference Slurm in DIR,
#                                 started and stopped by ../shared/peer/slurm-private.sh;
#                                 CORRAL_PORT_BASE=N: Corral's ports)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=${1:-1000}
per=$((jobs / 4))
work=$(mktemp -d /tmp/corral-e2e-bench-XXXX); chmod 755 "$work"

# CPU seconds (user + system) of this shell's waited-for children so far
children_cpu() {
  times | tail -n 1 | awk '{ for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } } END { printf "%.3f", t }'
}
# Run time in seconds of the command server's threads (0 when none is running)
server_cpu() {
  local f pid total=0
  f=$(ls "$CORRAL_COMMAND_SERVER_DIR"/s-*.pid 2>/dev/null | head -n 1)
  [ -n "$f" ] && pid=$(cat "$f") && total=$(cat /proc/"$pid"/task/*/schedstat 2>/dev/null | awk '{ t += $1 } END { printf "%.0f", t }')
  echo "scale=3; ${total:-0} / 1000000000" | bc
}
run() { # $1 = label, $2 = bin dir; SLURM_CONF must be set for Corral
  local bin=$2 t0 t1 c0 s0
  cd "$work"
  c0=$(children_cpu); s0=$(server_cpu)
  t0=$(date +%s.%N)
  for s in 1 2 3 4; do
    ( for _ in $(seq "$per"); do "$bin/sbatch" -Q -o /dev/null --wrap true >/dev/null; done ) &
  done
  wait
  t1=$(date +%s.%N)
  local cpu; cpu=$(echo "$(children_cpu) - $c0 + $(server_cpu) - $s0" | bc)
  while [ -n "$("$bin/squeue" -h -o %i | head -n 1)" ]; do sleep 0.2; done
  local t2; t2=$(date +%s.%N)
  echo "$1: submitted $((per * 4)) in $(echo "$t1 - $t0" | bc) s; queue empty after $(echo "$t2 - $t0" | bc) s; $(echo "scale=1; $((per * 4)) / ($t2 - $t0)" | bc) jobs/s; commands' CPU $cpu s ($(echo "scale=2; 1000 * $cpu / ($per * 4)" | bc) ms a job)"
}

# Corral (its standard ports are Slurm's: run it on its own base while the reference runs)
cd "$here"; [ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
port=${CORRAL_PORT_BASE:-$((30000 + RANDOM % 20000))}
export CORRAL_COMMAND_SERVER_DIR=$work/cmd # this run's command server, stopped at the end
CORRAL_SKIP_BUILD=1 ./corral up --dir "$work/corral" --port-base "$port" >/dev/null
trap 'cd "$here"; libexec/corral-front --stop-server; CORRAL_SKIP_BUILD=1 ./corral down --dir "$work/corral" >/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 100); do # the first commands start the server (and run the direct way)
  ls "$CORRAL_COMMAND_SERVER_DIR"/s-*.pid >/dev/null 2>&1 && break
  SLURM_CONF=$work/corral/slurm.conf "$here/bin/squeue" >/dev/null; sleep 0.2
done
SLURM_CONF=$work/corral/slurm.conf run corral-server "$here/bin"
CORRAL_COMMAND_SERVER=0 SLURM_CONF=$work/corral/slurm.conf run corral-jvm-per-command "$here/bin"

# The reference Slurm 22.05
if [ -n "${REFERENCE_DIR:-}" ]; then
  "$here/../shared/peer/slurm-private.sh" start "$REFERENCE_DIR" "${PORT_BASE:?PORT_BASE for the private reference}" >/dev/null
  SLURM_CONF=$REFERENCE_DIR/slurm.conf run slurm-22.05 /usr/bin
  "$here/../shared/peer/slurm-private.sh" stop "$REFERENCE_DIR"
else
  "$here/../shared/peer/slurm-reference.sh" start >/dev/null
  run slurm-22.05 /usr/bin
fi
