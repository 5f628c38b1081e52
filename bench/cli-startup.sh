#!/usr/bin/env bash
# CLI start-up (issues 5 and 26): `squeue` with 20 jobs in the queue and `sbatch -H --wrap true`,
# on Corral through its command server (docs/adr/0007-resident-command-server.md), on Corral
# with a JVM per command (CORRAL_COMMAND_SERVER=0), and on the reference Slurm, in the same run,
# interleaved: each round runs every command of a group once, in alternating order, so that a
# change in the machine's load reaches all of them alike. The squeues run first (the queue stays
# at 20 jobs), then the sbatches. Prints each command's median and quartiles of wall time and its
# median CPU (user + system); for the server path that is the front end's CPU plus the server's
# (its threads' run time from /proc/PID/task/*/schedstat, measured around each call).
#   bench/cli-startup.sh [ROUNDS]     (default 40; needs root for the reference's commands;
#                                     SKIP_REFERENCE=1: Corral only; CORRAL_SKIP_BUILD=1: use
#                                     build/ as it is, class caches included; PLUGSTACK=LINE:
#                                     a plugstack.conf with that line beside slurm.conf;
#                                     REFERENCE_CONF=DIR/slurm.conf: a private reference, as
#                                     /work/shared/peer/slurm-private.sh starts one;
#                                     CORRAL_PORT_BASE=N: Corral's ports)
# The reference must be running (../shared/peer/slurm-reference.sh start, or a private one named
# by REFERENCE_CONF) unless SKIP_REFERENCE is set; its queue gets held jobs named cli-startup,
# cancelled at the end.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-40}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
command -v python3 >/dev/null || { echo "cli-startup.sh: python3 is needed to time the runs" >&2; exit 1; }
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=${CORRAL_PORT_BASE:-$((30000 + RANDOM % 2000))}
reference=""
if [ -z "${SKIP_REFERENCE:-}" ] && [ -x /usr/bin/squeue ]; then reference=yes; fi
if [ -n "${REFERENCE_CONF:-}" ]; then ref_env="env SLURM_CONF=$REFERENCE_CONF"; else ref_env="env -u SLURM_CONF"; fi
# The command server's directory for this run (stopped at the end): private, never a user's.
export CORRAL_COMMAND_SERVER_DIR=$dir/cmd
cleanup() {
  [ -z "$reference" ] || $ref_env /usr/bin/scancel -n cli-startup 2>/dev/null || true
  "$here/libexec/corral-front" --stop-server || true
  CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 4 --cpus 8 >/dev/null
export SLURM_CONF=$dir/c/slurm.conf
# PLUGSTACK="required spank_pyxis.so": the commands load that plugin stack (issue 24's cost check)
[ -z "${PLUGSTACK:-}" ] || echo "$PLUGSTACK" > "$dir/c/plugstack.conf"
cd "$dir"
submit='sbatch -H -J cli-startup -o /dev/null --wrap true'
for _ in $(seq 20); do "$here/bin/"$submit >/dev/null; done
# the server is up once a command was served (the first ones start it and run the direct way)
for _ in $(seq 100); do
  ls "$CORRAL_COMMAND_SERVER_DIR"/s-*.pid >/dev/null 2>&1 && break
  "$here/bin/squeue" >/dev/null; sleep 0.2
done
server_pid_file=$(ls "$CORRAL_COMMAND_SERVER_DIR"/s-*.pid)
squeues=("server:$here/bin/squeue" "env CORRAL_COMMAND_SERVER=0 $here/bin/squeue")
sbatches=("server:$here/bin/$submit" "env CORRAL_COMMAND_SERVER=0 $here/bin/$submit")
if [ -n "$reference" ]; then
  for _ in $(seq 20); do $ref_env /usr/bin/$submit >/dev/null; done
  squeues+=("$ref_env /usr/bin/squeue")
  sbatches+=("$ref_env /usr/bin/$submit")
fi
echo "== $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $rounds interleaved rounds"
python3 - "$rounds" "$server_pid_file" "${squeues[@]}" -- "${sbatches[@]}" <<'TIMER'
import glob, resource, statistics, subprocess, sys, time
rounds, pid_file, rest = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
cut = rest.index('--')
server = open(pid_file).read().strip()

def server_cpu_ns():
    total = 0
    for f in glob.glob(f'/proc/{server}/task/*/schedstat'):
        try:
            total += int(open(f).read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # a thread that ended between the listing and the read
    return total

def run(c):
    served = c.startswith('server:')
    if served:
        c = c[len('server:'):]
        s0 = server_cpu_ns()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(['/bin/sh', '-c', 'exec ' + c], stdout=subprocess.DEVNULL, check=True)
    elapsed = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    if served:
        cpu += (server_cpu_ns() - s0) / 1e6
    return elapsed, cpu

for cmds in (rest[:cut], rest[cut + 1:]):
    wall = {c: [] for c in cmds}
    cpu = {c: [] for c in cmds}
    for c in cmds:  # warm the page cache; not counted
        for _ in range(3):
            run(c)
    for r in range(rounds):
        for c in (cmds if r % 2 == 0 else cmds[::-1]):
            w, u = run(c)
            wall[c].append(w)
            cpu[c].append(u)
    for c in cmds:
        q = statistics.quantiles(wall[c], n=4)
        print(f"{statistics.median(wall[c]):6.1f} ms median wall (quartiles {q[0]:.1f}-{q[2]:.1f}), "
              f"{statistics.median(cpu[c]):6.1f} ms CPU   {c}")
TIMER
