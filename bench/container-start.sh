#!/usr/bin/env bash
# Start latency of a containerised step (issue 24): `srun true` plain, `srun --container-image=IMG
# true` with the image already unpacked on the node (warm), and with the node's cache emptied
# first (cold: unsquashfs of a busybox image), on a fresh one-node Corral cluster with Pyxis's
# options enabled. Interleaved rounds; prints each form's median and quartiles of wall time.
#   bench/container-start.sh [ROUNDS] [USER]   (default 15 rounds, user corral-bob; needs root,
#                                              runc, squashfs-tools, busybox-static;
#                                              CORRAL_SKIP_BUILD=1: use build/ as it is)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-15}
user=${2:-corral-bob}
cd "$here"
[ -n "${CORRAL_SKIP_BUILD:-}" ] || ./mvnw -B -q -DskipTests package
id "$user" >/dev/null 2>&1 || useradd -m "$user"
dir=$(mktemp -d /tmp/corral-bench-XXXX); chmod 755 "$dir"
port=$((32000 + RANDOM % 2000))
cleanup() {
  CORRAL_SKIP_BUILD=1 "$here/corral" down --dir "$dir/c" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -p "$dir/conf"
printf 'NodeName=b1 CPUs=2 RealMemory=1000\nPartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP\n' \
  > "$dir/conf/slurm.conf"
echo "required spank_pyxis.so" > "$dir/conf/plugstack.conf"
CORRAL_SKIP_BUILD=1 ./corral up --dir "$dir/c" --port-base "$port" --config "$dir/conf/slurm.conf" >/dev/null
export SLURM_CONF=$dir/c/slurm.conf
mkdir -p "$dir/img/rootfs/bin" && cp /bin/busybox "$dir/img/rootfs/bin/"
for applet in $(/bin/busybox --list); do [ "$applet" = busybox ] || ln -s busybox "$dir/img/rootfs/bin/$applet"; done
mksquashfs "$dir/img/rootfs" "$dir/img/busybox.sqsh" -quiet -no-progress -all-root >/dev/null
chown -R "$user" "$dir/img"
uid=$(id -u "$user")
cache=$dir/c/spool/b1/containers/images/$uid
as_user=(setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups)
cd "$dir/img"
timed() { python3 -c 'import subprocess,sys,time; t=time.perf_counter(); r=subprocess.run(sys.argv[1:]); print(f"{(time.perf_counter()-t)*1000:.1f}"); sys.exit(r.returncode)' "$@"; }
srun=$here/bin/srun
"${as_user[@]}" "$srun" --container-image="$dir/img/busybox.sqsh" true   # first use makes the cache directory
: > "$dir/plain"; : > "$dir/warm"; : > "$dir/cold"
echo "== $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg), $rounds interleaved rounds"
for _ in $(seq "$rounds"); do
  timed "${as_user[@]}" "$srun" true >> "$dir/plain"
  timed "${as_user[@]}" "$srun" --container-image="$dir/img/busybox.sqsh" true >> "$dir/warm"
  find "$cache" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  timed "${as_user[@]}" "$srun" --container-image="$dir/img/busybox.sqsh" true >> "$dir/cold"
done
for f in plain warm cold; do
  python3 - "$f" "$dir/$f" <<'PY'
import statistics, sys
v = sorted(float(x) for x in open(sys.argv[2]))
q = statistics.quantiles(v, n=4)
print(f"{sys.argv[1]:>6}: median {statistics.median(v):7.1f} ms  (quartiles {q[0]:.1f}-{q[2]:.1f}, n={len(v)})")
PY
done
