#!/bin/sh
# The job's side of the launch: runs as the job's user, as the leader of the job's own session
# and process group, and finally becomes the job's script (exec). Until the job's own stderr
# is open, fd 2 is the launch error log that slurmd reports when the launch fails.
#
# Usage: job-user.sh JOBDIR NODE WORKDIR STDIN STDOUT STDERR OPEN_MODE UMASK [WORDS...]
# STDERR empty = the same file as STDOUT; a path of "-" keeps the inherited descriptor (a step
# task's stream to srun); OPEN_MODE append|truncate. The WORDS (a step task's), or else the one
# `set --` line in JOBDIR/environment (a batch job's): NAME=value entries, then the command.
dir=$1 node=$2 work=$3 in=$4 out=$5 err=$6 mode=$7 mask=$8

# Opens PATH on descriptor FD (OP is <, > or >>); on failure says why, in the shell's words.
# eval only sees the variable's name, never the user's path itself.
open_job_file() { # FD WHAT PATH OP
  fd=$1 what=$2 path=$3 op=$4
  { eval "command exec $fd$op\"\$path\""; } 2>/dev/null && return
  [ "$op" = '>' ] && op='>>'
  why=$( { eval ": $op\"\$path\""; } 2>&1 )
  printf 'Could not open %s file %s: %s\n' "$what" "$path" "${why##*: }" >&2
  exit 1
}

write='>'
[ "$mode" = append ] && write='>>'
umask "$mask" || exit 1
if [ "$in" = - ]; then exec 5<&0; else open_job_file 5 stdin "$in" '<'; fi
if [ "$out" = - ]; then exec 6>&1; else open_job_file 6 stdout "$out" "$write"; fi
if [ -z "$err" ]; then
  exec 7>&6
elif [ "$err" = - ]; then
  exec 7>&2
else
  open_job_file 7 stderr "$err" "$write"
fi
step_task=
if [ $# -gt 8 ]; then
  shift 8
  step_task=1
else
  . "$dir/environment" || exit 1
fi
exec 8>&2 0<&5 1>&6 2>&7 5<&- 6>&- 7>&-

if ! cd -- "$work" 2>/dev/null; then
  if [ ! -e "$work" ]; then why='No such file or directory'
  elif [ ! -d "$work" ]; then why='Not a directory'
  else why='Permission denied'; fi
  msg="slurmstepd-$node: error: couldn't chdir to \`$work': $why: going to /tmp instead"
  if [ -n "$step_task" ]; then
    # A step's task: once per task, on the stream to srun even with -o/-e (slurmd adds the
    # step daemon's own line once per node), as Slurm 22.05 does.
    printf '%s\n' "$msg" >&8
  else
    # A batch job: twice, once from the step daemon and once from the task.
    printf '%s\n%s\n' "$msg" "$msg" >&2
  fi
  cd /tmp || exit 1
fi
# A step task's command may not exist or run: say so as Slurm's step daemon does, with the
# errno as exit code (ENOENT 2, EACCES 13), instead of env's own message and 127/126.
# Bare names are looked up in the task's PATH (the first non-NAME=value word is the command).
if [ -n "$step_task" ]; then
  path_var=/usr/bin:/bin cmd=
  for word in "$@"; do
    case $word in
      PATH=*) path_var=${word#PATH=} ;;
      [A-Za-z_]*=*) ;;
      *) cmd=$word; break ;;
    esac
  done
  why= shown=$cmd
  case $cmd in
    */*)
      case $cmd in /*) shown=$cmd ;; *) shown=$PWD/$cmd ;; esac
      if [ ! -e "$shown" ]; then why='No such file or directory'
      elif [ -d "$shown" ] || [ ! -x "$shown" ]; then why='Permission denied'; fi ;;
    *)
      why='No such file or directory'
      saved_ifs=$IFS; IFS=:
      for d in $path_var; do
        [ -n "$d" ] || d=.
        if [ -f "$d/$cmd" ] && [ -x "$d/$cmd" ]; then why=; break; fi
        [ -e "$d/$cmd" ] && why='Permission denied'
      done
      IFS=$saved_ifs ;;
  esac
  if [ -n "$why" ]; then
    printf 'slurmstepd-%s: error: execve(): %s: %s\n' "$node" "$shown" "$why" >&2
    [ "$why" = 'Permission denied' ] && exit 13
    exit 2
  fi
fi
# The wrapper started this in the background, so SIGINT and SIGQUIT arrive ignored (and a
# shell cannot restore them): env puts every signal back to its default for the command.
exec env -i --default-signal -- "SLURM_TASK_PID=$$" "$@" 8>&-
