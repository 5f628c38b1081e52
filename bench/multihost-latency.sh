#!/usr/bin/env bash
# Commands from the login host against the controller's host (issue 20): `squeue` (10 jobs in the
# queue) and `sbatch -H --wrap true` run by root through `corral on` in a namespaced cluster
# (`corral up --hosts`), on the login host (TCP + MUNGE) and on the controller's host (the Unix
# socket), interleaved round by round so that the machine's load reaches both alike. Prints each
# one's median and quartiles of wall time (nsenter's own cost is in both).
#   bench/multihost-latency.sh [ROUNDS]   (default 20; root; CORRAL_SKIP_BUILD=1 uses build/;
#                                          NETNS_PREFIX (default corral-bench-), SUBNET)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-20}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
dir=$(mktemp -d /tmp/corral-mh-bench-XXXX); chmod 755 "$dir"
cleanup() { CORRAL_SKIP_BUILD=1 "$here/corral" down --hosts --dir "$dir/c" >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap cleanup EXIT
CORRAL_SKIP_BUILD=1 ./corral up --hosts --dir "$dir/c" --port-base 7000 \
  --netns-prefix "${NETNS_PREFIX:-corral-bench-}" --subnet "${SUBNET:-10.205.9}" >/dev/null
on() { "$here/corral" on --dir "$dir/c" "$@"; }
for _ in $(seq 10); do on ctl sbatch -H -Q --wrap true >/dev/null; done
python3 - "$rounds" "$here/corral" "$dir/c" <<'PY'
import statistics, subprocess, sys, time
rounds, corral, d = int(sys.argv[1]), sys.argv[2], sys.argv[3]
cases = [(h, c) for c in (["squeue"], ["sbatch", "-H", "-Q", "--wrap", "true"]) for h in ("login", "ctl")]
times = {i: [] for i in range(len(cases))}
for r in range(rounds):
    order = list(range(len(cases))) if r % 2 == 0 else list(reversed(range(len(cases))))
    for i in order:
        host, cmd = cases[i]
        t = time.perf_counter()
        subprocess.run([corral, "on", "--dir", d, host] + cmd, check=True, stdout=subprocess.DEVNULL)
        times[i].append((time.perf_counter() - t) * 1000)
for i, (host, cmd) in enumerate(cases):
    q = statistics.quantiles(times[i], n=4)
    print(f"{cmd[0]:7s} on {host:5s}: median {statistics.median(times[i]):7.1f} ms  (quartiles {q[0]:.1f}-{q[2]:.1f}, {rounds} runs)")
PY
