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
# Files it writes in JOBDIR (root-owned; each final file appears atomically through mv):
#   pid     the job's pid, which is also its process group and session id
#   status  the job's wait(2)-style status: code << 8, or the signal number (| 0x80 on a core)
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
mkfifo -m 600 "$dir/pid.fifo" || exit 1

# setsid -f -w forks the job into a new session and waits for it: unlike a shell's $?, its
# result tells a death by signal (exit status = the raw wait status byte, plus the message
# "did not exit normally" on its stderr) from an exit with code 128+N. The forked child, still
# root, reports its pid (= process group) before it drops privileges, so the pid is trusted.
setsid -f -w /bin/sh -c '
    echo $$ >&3
    exec 3>&-
    uid=$1 gid=$2
    shift 2
    exec setpriv --reuid="$uid" --regid="$gid" --init-groups -- /bin/sh "$@" \
        <&5 >&6 2>&4 4>&- 5<&- 6>&-
  ' job-launch "$uid" "$gid" "$@" \
  2>"$dir/wait.err" 3>"$dir/pid.fifo" </dev/null >/dev/null &
waiter=$!
exec 4>&- 5<&- 6>&-

pid=
read -r pid <"$dir/pid.fifo"
rm -f "$dir/pid.fifo"
case $pid in
  ''|*[!0-9]*) pid= ;;
  *) printf '%s\n' "$pid" >"$dir/pid.tmp" && mv -f "$dir/pid.tmp" "$dir/pid" ;;
esac

wait "$waiter"
rc=$?
setsid_said=
read -r setsid_said <"$dir/wait.err"
case $setsid_said in
  *'did not exit normally'*) status=$rc ;;
  *) status=$((rc << 8)) ;;
esac

# The job ends with its script, as in Slurm: processes it left behind in its group go too.
[ -n "$pid" ] && kill -s KILL -- "-$pid" 2>/dev/null
printf '%s\n' "$status" >"$dir/status.tmp" && mv -f "$dir/status.tmp" "$dir/status"
