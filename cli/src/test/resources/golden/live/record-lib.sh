# The harness of the live golden recordings, sourced by live/record.sh and tools/record.sh with
# rec set to the recording's directory (its ref/, corral/ and first-id) and the target (ref or
# corral) as $1: starts the Corral cluster (or uses the reference), defines the case runner c
# and its helpers, and sets up phase 0 (the probe job, partitions long/short/closed, n4 drained);
# finish undoes it all. See live/record.sh for the conventions.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../../../../.." && pwd)
target=${1:?usage: record.sh ref|corral}
out=$rec/$target
rm -rf "$out"
mkdir -p "$out"
work=$(mktemp -d /tmp/corral-live-XXXXXX)
chmod 755 "$work"
cp "$here"/files/* "$work/"
chmod 644 "$work"/*
n=0
ids=()

if [ "$target" = ref ]; then
  bin=/usr/bin
  # A private reference (slurm-private.sh) is named by SLURM_CONF; the shared one by none.
  cmd_env=(PATH=/usr/bin:/bin HOME=/root ${SLURM_CONF:+SLURM_CONF=$SLURM_CONF})
else
  dir=${CORRAL_DIR:-/tmp/cli-c}
  base=${CORRAL_PORT_BASE:-15817}
  unset SLURM_CONF   # set below to the Corral cluster's
  first=$(head -1 "$rec/held" 2>/dev/null | cut -d' ' -f1)  # Corral recreates them, same ids
  [ -n "$first" ] || first=$(cat "$rec/first-id")
  bin=$repo/bin
  "$repo/corral" down --dir "$dir" >/dev/null 2>&1
  rm -rf "$dir"
  CORRAL_SKIP_BUILD=1 "$repo/corral" up --dir "$dir" --port-base "$base" >/dev/null || exit 1
  "$repo/corral" down --dir "$dir" >/dev/null
  rm -rf "$dir/state" "$dir/dbd"
  sed -i -e 's/^ClusterName=.*/ClusterName=reference/' -e 's/^MinJobAge=.*/MinJobAge=30/' \
    -e 's/^SlurmdTimeout=.*/SlurmdTimeout=300/' -e 's/ NodeAddr=127.0.0.1//' "$dir/slurm.conf"
  cat >> "$dir/slurm.conf" <<EOF
FirstJobId=$first
JobAcctGatherFrequency=5
PartitionName=long Nodes=n[3-4] MaxTime=2-00:00:00 DefaultTime=1:00:00 MinNodes=1 State=UP
PartitionName=short Nodes=n[1-2] MaxTime=30 MaxNodes=2 MinNodes=1 State=UP
PartitionName=closed Nodes=n[1-2] MinNodes=1 State=DOWN
EOF
  CORRAL_SKIP_BUILD=1 "$repo/corral" up --dir "$dir" >/dev/null || exit 1
  export SLURM_CONF=$dir/slurm.conf
  cmd_env=(PATH=$repo/bin:/usr/bin:/bin HOME=/root SLURM_CONF=$SLURM_CONF)
  . "$repo/libexec/find-java.sh"
  corral_find_java
  lib=$repo/build/lib
  . "$repo/libexec/cli-flags.sh"
  # A copy of the recorder: a build while recording must not take it away.
  mkdir -p "$work/classes/org/corral/cli"
  cp "$repo"/cli/target/test-classes/org/corral/cli/RpcRecording*.class "$work/classes/org/corral/cli/" || exit 1
  java_cmd=("$CORRAL_JAVA_HOME/bin/java" $CORRAL_CLI_FLAGS
    -cp "$CORRAL_CLI_CLASSPATH:$work/classes" org.corral.cli.RpcRecording)
fi

# Setup steps (not recorded), as root or as a user.
S() { local t=$1; shift; "$bin/$t" "$@"; }
as() { local u=$1 t=$2; shift 2; su -s /bin/bash "$u" -c "cd /tmp && $(printf '%q ' "$bin/$t" "$@")"; }
J() { echo "${ids[$1]}"; }   # the id of the N-th job submitted (0 = the probe)
submit() { local id; id=$("$@" | tail -1); ids+=("${id%%;*}"); }

# A recorded case: c NAME [VAR=value ...] TOOL ARGS...
c() {
  n=$((n + 1))
  local name; name=$(printf '%03d' $n)_$1; shift
  local envs=()
  while [[ $1 =~ ^[A-Z_0-9]+= ]]; do envs+=("$1"); shift; done
  last=$name
  printf '%s\n' "$@" > "$out/$name.args"
  printf '%s\n' "${envs[@]}" | grep . > "$out/$name.env"
  date +%s > "$out/$name.time"
  local tool=$1; shift
  if [ "$target" = ref ]; then
    (cd "$work" && env -i "${cmd_env[@]}" PWD="$work" "${envs[@]}" \
      bash -c 'exec -a "$0" "/usr/bin/$0" "$@"' "$tool" "$@" \
      < /dev/null > "$out/$name.out" 2> "$out/$name.err"; echo $? > "$out/$name.rc")
  else
    (cd "$work" && env -i "${cmd_env[@]}" PWD="$work" CORRAL_RPC_LOG="$out/$name.rpc" "${envs[@]}" \
      "${java_cmd[@]}" "$tool" "$@" \
      < /dev/null > "$out/$name.out" 2> "$out/$name.err"; echo $? > "$out/$name.rc")
  fi
}

# The id the last case's sbatch printed (kept to cancel at the end).
last_id() { grep -oE "[0-9]+" "$out/$last.out" | tail -1; }

settle() { sleep "${1:-3}"; }
# Waits until at least N of the job's (array's) records run: an array task takes a new job id
# when it starts, so the next submission's id depends on it.
wait_running() {
  for _ in $(seq 1 30); do
    [ "$("$bin/squeue" -h -r -t R -j "$1" -o %i 2>/dev/null | wc -l)" -ge "$2" ] && return 0
    sleep 1
  done
  echo "job $1: fewer than $2 running" >&2
}
# Waits until none of the given jobs is listed any more (purged after MinJobAge).
wait_gone() {
  for _ in $(seq 1 90); do
    local left=0
    for id in "$@"; do
      "$bin/squeue" -h -t all -j "$id" -o %i 2>/dev/null | grep -q . && left=1
    done
    [ $left = 0 ] && return 0
    sleep 2
  done
  echo "jobs $* not purged" >&2
}

# KEEP_HELD=1 (ref): jobs someone left held on the reference (sbatch -H --wrap, ids in a row) are
# tolerated: their ids and work directories go to $rec/held and the Corral run submits the same
# before its probe, so both queues hold them. Anything else in the queue refuses the recording.
others=$(env "${cmd_env[@]}" "$bin/squeue" -h -t all -o '%A %t %r %j %P %Z' | sort -n)
if [ "$target" = ref ]; then
  : > "$rec/held"
  if [ -n "$others" ] && [ "${KEEP_HELD:-0}" = 1 ]; then
    held=$(awk '$2 == "PD" && $3 == "JobHeldUser" && $4 == "wrap" && $5 == "debug" {print $1, $6}' <<< "$others")
    held_ids=$(cut -d' ' -f1 <<< "$held")
    if [ "$held" != "" ] && [ "$(wc -l <<< "$others")" = "$(wc -l <<< "$held")" ] \
        && [ "$(tail -1 <<< "$held_ids")" = "$(( $(head -1 <<< "$held_ids") + $(wc -l <<< "$held_ids") - 1 ))" ]; then
      echo "$held" > "$rec/held"; others=""
    fi
  fi
fi
if [ -n "$others" ]; then
  echo "other jobs are in the queue: wait until it is empty" >&2; exit 1
fi
if [ "$target" = corral ] && [ -s "$rec/held" ]; then
  while read -r _ wd; do S sbatch -H --chdir="$wd" --wrap true >/dev/null; done < "$rec/held"
  # The reference gave other ids between them and the probe: a restart with FirstJobId at the
  # probe's id skips them (the controller keeps its jobs and raises its next id to FirstJobId).
  "$repo/corral" down --dir "$dir" >/dev/null
  sed -i "s/^FirstJobId=.*/FirstJobId=$(cat "$rec/first-id")/" "$dir/slurm.conf"
  CORRAL_SKIP_BUILD=1 "$repo/corral" up --dir "$dir" >/dev/null || exit 1
fi

# ---- phase 0: the probe job fixes the ids; partitions and a down node
submit S sbatch --parsable -H -J probe --chdir=/tmp --wrap true
S scancel "$(J 0)"
[ "$target" = ref ] && echo "$(J 0)" > "$rec/first-id"
# The users' ids on this machine, for LiveGoldenTest's replay (squeue -u, sinfo's reason user).
[ "$target" = ref ] && getent passwd root corral-alice corral-bob | cut -d: -f1,3 > "$rec/users"
if [ "$target" = ref ]; then
  S scontrol create partitionname=long nodes=n[3-4] maxtime=2-00:00:00 defaulttime=1:00:00 state=up
  S scontrol create partitionname=short nodes=n[1-2] maxtime=30 maxnodes=2 state=up
  S scontrol create partitionname=closed nodes=n[1-2] state=down
fi
# n4 is drained, not DOWN: with ReturnToService=2 Slurm 22.05 returns a DOWN node to service as
# soon as its slurmd answers a ping (setting it DOWN pings it at once: idle again within
# seconds), so a live node cannot be kept DOWN on the reference; a drained node stays drained.
S scontrol update nodename=n4 state=drain reason=dead
wait_gone "$(J 0)"


# ---- clean up
finish() {
  # Every id from the probe's to the highest given out (the queue was empty at the start).
  last_job=$(env "${cmd_env[@]}" "$bin/squeue" -h -t all -o %A | sort -n | tail -1)
  S scancel $(seq "$(J 0)" "${last_job:-$(J 0)}") 2>/dev/null
  settle 5
  S scontrol update nodename=n3,n4 state=resume
  for id in $(seq "$(J 0)" "${last_job:-$(J 0)}"); do   # the jobs' output, on either system
    rm -f "/tmp/slurm-$id.out" "/tmp/slurm-${id}_"*.out
  done
  if [ "$target" = ref ]; then
    for p in long short closed; do S scontrol delete partitionname=$p; done
  else
    "$repo/corral" down --dir "$dir" >/dev/null
  fi
  rm -rf "$work"
  echo "recorded $n cases in $out"
}
