#!/bin/sh
# Supervises one batch job. Runs as root in a session of its own (slurmd starts it through
# setsid with a clean environment), so it outlives a slurmd restart. It never evaluates user
# data: every user-controlled value only travels on as a quoted argument.
#
# Usage: job-wrapper.sh JOBDIR UID GID IO USER_SHELL [USER_SHELL arguments...]
# IO: files (a batch job: the user's shell starts with no stdin/stdout, stderr = launch.err, and
# opens the job's files itself) or streams (a step's task: it inherits this wrapper's stdin,
# stdout and stderr, slurmd's pipes).
#
# It reads JOBDIR/cgroup (optional, written by slurmd). It appends to JOBDIR/record (root-owned;
# each line in one write, so a reader sees either nothing or the whole line), as job-launcher.pl:
#   pid PID        the job's pid, which is also its process group and session id
#   status STATUS  the job's wait(2)-style status: code << 8, or the signal number (| 0x80 on a core)
# and, through inherited descriptors: wait.err (setsid's own messages) and, with IO=files,
# launch.err (what went wrong before the job's script could start; empty when it started).
umask 077
dir=$1 uid=$2 gid=$3 io=$4
shift 4
if [ "$io" = streams ]; then
  exec 4>&2 5<&0 6>&1
else
  exec 4>"$dir/launch.err" 5</dev/null 6>/dev/null
fi

# setsid -f -w forks the job into a new session and waits for it: unlike a shell's $?, its
# result tells a death by signal (exit status = the raw wait status byte, plus the message
# "did not exit normally" on its stderr) from an exit with code 128+N. The forked child, still
# root, records its pid (= process group) before it drops privileges, so the pid is trusted.
# No fifo, mv or other helper process: each exec costs ~1 ms of CPU, and launch rate counts.
# Before it runs any user code, the child joins the job's batch step cgroup(s): JOBDIR/cgroup
# lists one cgroup.procs (or tasks) file a line; a failed join is a failed launch.
setsid -f -w /bin/sh -c '
    dir=$1 uid=$2 gid=$3
    shift 3
    echo "pid $$" >>"$dir/record" || exit 1
    if [ -f "$dir/cgroup" ]; then
      while IFS= read -r procs; do
        [ -n "$procs" ] || continue
        echo $$ 2>/dev/null >"$procs" || {
          echo "cannot join the job cgroup: $procs" >&4
          exit 1
        }
      done <"$dir/cgroup"
    fi
    exec setpriv --reuid="$uid" --regid="$gid" --init-groups -- /bin/sh "$@" \
        <&5 >&6 2>&4 4>&- 5<&- 6>&-
  ' job-launch "$dir" "$uid" "$gid" "$@" \
  2>"$dir/wait.err" </dev/null >/dev/null &
waiter=$!
exec 4>&- 5<&- 6>&-

wait "$waiter"
rc=$?
pid=
if [ -f "$dir/record" ]; then
  while read -r key value; do
    [ "$key" = pid ] && pid=$value
  done <"$dir/record"
fi
case $pid in
  ''|*[!0-9]*) pid= ;;
esac
setsid_said=
read -r setsid_said <"$dir/wait.err"
case $setsid_said in
  *'did not exit normally'*) status=$rc ;;
  *) status=$((rc << 8)) ;;
esac

# The job ends with its script, as in Slurm: processes it left behind in its group go too.
[ -n "$pid" ] && kill -s KILL -- "-$pid" 2>/dev/null

# OOM kills in the batch step's cgroup (v1 memory.oom_control, v2 memory.events): say so on the
# job's stderr as slurmstepd does, writing as the user (the file is the user's).
# "$@" is: job-user.sh JOBDIR NODE WORKDIR STDIN STDOUT STDERR OPEN_MODE UMASK.
kills=0
if [ "$io" = files ] && [ -f "$dir/cgroup" ] && [ $# -ge 7 ]; then
  while IFS= read -r procs; do
    for counter in "${procs%/*}/memory.oom_control" "${procs%/*}/memory.events"; do
      [ -r "$counter" ] || continue
      while read -r key value; do
        [ "$key" = oom_kill ] && case $value in ''|*[!0-9]*) ;; *) kills=$((kills + value)) ;; esac
      done <"$counter"
    done
  done <"$dir/cgroup"
fi
if [ "$kills" -gt 0 ]; then
  job=${dir##*/job}
  while case $job in 0?*) true ;; *) false ;; esac; do job=${job#0}; done
  err=$7
  [ -n "$err" ] || err=$6
  msg="slurmstepd-$3: error: Detected $kills oom-kill event(s) in StepId=$job.batch cgroup. Some of your processes may have been killed by the cgroup out-of-memory handler."
  setpriv --reuid="$uid" --regid="$gid" --init-groups -- /bin/sh -c 'printf "%s\n" "$1" >>"$2"' \
    oom-report "$msg" "$err" </dev/null >/dev/null 2>&1
fi
printf 'status %s\n' "$status" >>"$dir/record"
