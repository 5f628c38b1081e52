#!/usr/bin/env bash
# Connection exhaustion (issue 23), the long version of e2e ConnectionFloodTest: on a fresh
# two-node cluster, one user (ATTACKER) keeps up, round after round for DURATION seconds,
# 4,000 idle connections to the controller's socket, 1,000 unauthenticated TCP connections
# sending a frame a byte a second, and 50 connections announcing 60 MiB frames
# (testkit's conn_flood.py), while another user (VICTIM) runs squeue every second and keeps a
# job running. Prints squeue's latency before and during the attack (median, quartiles, max),
# whether the victim's job is still running (not requeued) and the nodes' states at the end.
#   bench/conn-flood.sh [DURATION] [ATTACKER] [VICTIM]
#     (default 120 s, corral-alice, corral-bob; needs root; CORRAL_SKIP_BUILD=1: use build/ as it is;
#      CORRAL_PORT_BASE=N: the cluster's ports)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
duration=${1:-120}
attacker=${2:-corral-alice}
victim=${3:-corral-bob}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
for u in "$attacker" "$victim"; do id "$u" >/dev/null 2>&1 || useradd -m "$u"; done
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=${CORRAL_PORT_BASE:-$((44000 + RANDOM % 900))}
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 2 --cpus 2 >/dev/null
export SLURM_CONF=$dir/c/slurm.conf
flood=$dir/conn_flood.py
cp testkit/src/main/resources/org/corral/testkit/conn_flood.py "$flood"; chmod 755 "$flood"
socket=$(find "$dir/c" -name 'slurmctld-*.sock' | head -1)
as() { local u=$1; shift; setpriv --reuid="$u" --regid="$(id -g "$u")" --init-groups "$@"; }
timed() { python3 -c 'import subprocess,sys,time; t=time.perf_counter(); r=subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL); print(f"{(time.perf_counter()-t)*1000:.1f}" if r.returncode == 0 else "fail")' "$@"; }
work=$dir/work; mkdir -p "$work"; chown "$victim" "$work"
job=$(cd "$work" && as "$victim" "$here/bin/sbatch" --parsable -N1 --wrap "sleep $((duration + 600))")
until [ "$("$here/bin/squeue" -h -j "$job" -o %T)" = RUNNING ]; do sleep 0.5; done
started=$("$here/bin/squeue" -h -j "$job" -o %S)
: > "$dir/before"; : > "$dir/during"
for _ in $(seq 10); do timed as "$victim" "$here/bin/squeue" -h >> "$dir/before"; sleep 1; done
attack() { # round after round until the duration is over: each round's connections live 30 s at most
  local end=$((SECONDS + duration))
  while [ $SECONDS -lt $end ]; do
    as "$attacker" /usr/bin/python3 "$flood" "$@" 30 </dev/null >/dev/null 2>&1 || true
  done
}
attack "unix:$socket" 50 big & pids+=($!)
attack "unix:$socket" 4000 idle & pids+=($!)
attack "tcp:127.0.0.1:$port" 1000 loris & pids+=($!)
end=$((SECONDS + duration))
while [ $SECONDS -lt $end ]; do timed as "$victim" "$here/bin/squeue" -h >> "$dir/during"; sleep 1; done
echo "== $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), attack of ${duration} s"
for f in before during; do
  python3 - "$f" "$dir/$f" <<'PY'
import statistics, sys
raw = [x.strip() for x in open(sys.argv[2]) if x.strip()]
fails = raw.count("fail")
v = sorted(float(x) for x in raw if x != "fail")
q = statistics.quantiles(v, n=4) if len(v) > 1 else [v[0], v[0], v[0]]
print(f"squeue {sys.argv[1]:>6}: median {statistics.median(v):7.1f} ms (quartiles {q[0]:.1f}-{q[2]:.1f}, max {v[-1]:.1f}, n={len(v)}, failed {fails})")
PY
done
now=$("$here/bin/squeue" -h -j "$job" -o "%T %S")
echo "victim's job: $now (started $started: $([ "$now" = "RUNNING $started" ] && echo 'never requeued' || echo 'REQUEUED OR ENDED'))"
echo "nodes: $("$here/bin/sinfo" -h -N -o '%N=%T' | tr '\n' ' ')"
"$here/bin/scancel" "$job"
