#!/bin/sh
# Corral's job shell: what Slurm's slurmstepd does for a batch job, in a few lines.
# slurmd starts it as root, detached (setsid), with a clean environment:
#   job-shell.sh SPOOL UID GID WORKDIR STDOUT STDERR STDIN OPENMODE SCRIPT [ARGS...]
# The user's part runs under setpriv in a session of its own, so a signal to that process group
# reaches the whole job but not this shell, which stays to record the exit status. The job's
# environment comes in on stdin as `export NAME='value'` lines (opened here, as root) and is
# evaluated by the user's own shell: nothing the user controls is ever run as root.
spool=$1; uid=$2; gid=$3
shift 3
if [ "$(id -u)" = "$uid" ]; then
  drop=""
else
  drop="setpriv --reuid=$uid --regid=$gid --init-groups --"
fi
# shellcheck disable=SC2016,SC2086
setsid $drop /bin/sh -c '
  wd=$1 out=$2 err=$3 in=$4 mode=$5 script=$6
  shift 6
  eval "$(cat)"
  moved=""
  cd "$wd" 2>/dev/null || { moved=$wd; cd /tmp || exit 1; }
  if [ "$mode" = append ]; then
    exec >>"$out" || exit 1
    if [ "$err" = "$out" ]; then exec 2>&1; else exec 2>>"$err" || exit 1; fi
  else
    exec >"$out" || exit 1
    if [ "$err" = "$out" ]; then exec 2>&1; else exec 2>"$err" || exit 1; fi
  fi
  exec <"$in" || exit 1
  [ -n "$moved" ] && echo "slurmstepd: error: couldn'"'"'t chdir to \`$moved'"'"': No such file or directory: going to /tmp instead" >&2
  SLURM_TASK_PID=$$
  export SLURM_TASK_PID
  exec "$script" "$@"
' corral-job "$@" <"$spool/environment" &
child=$!
echo "$child" >"$spool/pgid.tmp" && mv "$spool/pgid.tmp" "$spool/pgid"
wait "$child"
echo "$?" >"$spool/exit.tmp" && mv "$spool/exit.tmp" "$spool/exit"
