#!/bin/sh
# Records the cf_* cases (sacctmgr show configuration: the client's slurm.conf settings, then
# slurmdbd's) from the reference Slurm 22.05 with slurmdbd (bench/reference/accounting.sh), as
# root. It changes nothing. Each case: NAME.cmd (the command line), NAME.out, NAME.err, NAME.rc.
set -u
cd "$(dirname "$0")"
S=/usr/bin/sacctmgr
run() { # NAME COMMAND...
  name=$1; shift
  echo "$*" > "$name.cmd"
  "$@" > "$name.out" 2> "$name.err"
  echo $? > "$name.rc"
}
run cf_01_show_configuration $S show configuration
run cf_02_list_config_np $S list config -n -P
