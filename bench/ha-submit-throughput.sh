#!/usr/bin/env bash
# Durable submissions per second with one controller, then with three replicated controllers
# (SlurmctldHost listed three times, at 127.0.0.1-3 on this host, a Raft group): 16 clients
# submitting held jobs over the leader's Unix socket, each acknowledged once durable (one
# controller: fsynced; three: committed by a majority).
#   bench/ha-submit-throughput.sh [TOTAL]      (default 20000)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
total=${1:-20000}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
. libexec/find-java.sh; corral_find_java
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=$((30000 + RANDOM % 20000))
trap 'for c in 1 3; do CORRAL_SKIP_BUILD=1 ./corral down --dir "$dir/c$c" >/dev/null 2>&1 || true; done; rm -rf "$dir"' EXIT
for controllers in 1 3; do
  {
    echo "ClusterName=bench"
    for i in $(seq 0 $((controllers - 1))); do echo "SlurmctldHost=c$i(127.0.0.$((i + 1)))"; done
    echo "NodeName=b1 CPUs=4 RealMemory=4000"
    echo "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } > "$dir/given$controllers.conf"
  CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c$controllers" --port-base "$port" \
    --config "$dir/given$controllers.conf" >/dev/null
  if [ "$controllers" -gt 1 ]; then # the primary leads, so that its socket is the leader's
    SLURM_CONF="$dir/c$controllers/slurm.conf" bin/scontrol takeover 0
    sleep 3
  fi
  echo -n "controllers=$controllers "
  "$CORRAL_JAVA_HOME/bin/java" -cp "build/lib/*:bench/target/classes" org.corral.bench.SubmitLoad \
    "$dir/c$controllers/slurmctld-$port.sock" 16 "$total"
  CORRAL_SKIP_BUILD=1 ./corral down --dir "$dir/c$controllers" >/dev/null
  port=$((port + 200))
done
