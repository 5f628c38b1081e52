#!/bin/sh
# TaskProlog and TaskEpilog around a batch script or a step's task, as slurm.conf(5) describes them. Runs as
# the job's user, in the job's environment, with the job's files open (job-launcher.pl execs it in
# place of the script, so SLURM_TASK_PID is this shell's pid).
#
# Usage: task-hooks.sh TASK_PROLOG TASK_EPILOG SCRIPT [ARGS...]   (an empty path: none)
#
# The TaskProlog's stdout is read line by line, never evaluated:
#   export NAME=value   sets NAME for the script (everything after '=' to the end of the line)
#   unset NAME          removes NAME
#   print TEXT          writes TEXT to the job's stdout
# Its own variables are named corral_* so that the job's own variables stay as they are.
corral_prolog=$1 corral_epilog=$2
shift 2

corral_valid_name() {
  case $1 in
    ''|[!A-Za-z_]*|*[!A-Za-z0-9_]*) return 1 ;;
  esac
  return 0
}

if [ -n "$corral_prolog" ]; then
  corral_said=$("$corral_prolog")
  while IFS= read -r corral_line; do
    case $corral_line in
      'export '*)
        corral_pair=${corral_line#export }
        corral_name=${corral_pair%%=*}
        if [ "$corral_name" != "$corral_pair" ] && corral_valid_name "$corral_name"; then
          export "$corral_name=${corral_pair#*=}"
        fi ;;
      'unset '*)
        corral_name=${corral_line#unset }
        corral_valid_name "$corral_name" && unset "$corral_name" ;;
      'print '*)
        printf '%s\n' "${corral_line#print }" ;;
    esac
  done <<END_OF_PROLOG_OUTPUT
$corral_said
END_OF_PROLOG_OUTPUT
fi
unset corral_prolog corral_said corral_line corral_pair corral_name

if [ -z "$corral_epilog" ]; then
  exec "$@"
fi
"$@"
corral_rc=$?
"$corral_epilog"
# A script killed by a signal ends the same way here, so its job records the signal.
if [ "$corral_rc" -gt 128 ]; then
  kill -"$((corral_rc - 128))" $$ 2>/dev/null
fi
exit "$corral_rc"
