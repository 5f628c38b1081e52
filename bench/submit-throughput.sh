#!/usr/bin/env bash
# Durable submissions per second on the RPC API: 16 clients, fsync on (group commit).
#   bench/submit-throughput.sh [TOTAL]      (default 50000)
# Starts a private Corral cluster on free ports, runs SubmitLoad against it, stops it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
total=${1:-50000}
cd "$here"
./mvnw -B -q -DskipTests package
. libexec/find-java.sh; corral_find_java
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=$((30000 + RANDOM % 20000))
trap 'CORRAL_SKIP_BUILD=1 ./corral down --dir "$dir/c" >/dev/null; rm -rf "$dir"' EXIT
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --nodes 1 >/dev/null
"$CORRAL_JAVA_HOME/bin/java" -cp "build/lib/*:bench/target/classes" org.corral.bench.SubmitLoad "$dir/c/slurmctld-$port.sock" 16 "$total"
