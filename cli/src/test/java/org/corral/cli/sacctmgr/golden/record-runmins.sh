#!/bin/sh
# Records the rm_* cases (GrpTRESRunMins) from the reference Slurm 22.05 with slurmdbd
# (bench/reference/accounting.sh), as root. Every case answers "n" at the commit prompt, so the
# reference's database is left as it was. Each case: NAME.cmd, NAME.out, NAME.err, NAME.rc.
. "$(dirname "$0")/record-lib.sh"
no() { # NAME ARGS...: echo n | sacctmgr ARGS
  name=$1; shift
  echo "echo n | $S $*" > "$name.cmd"
  echo n | $S "$@" > "$name.out" 2> "$name.err"
  echo $? > "$name.rc"
}
no rm_01_add_qos_run_mins_no add qos rmq GrpTRESRunMins=cpu=100 GrpTRESMins=cpu=50 GrpWall=10
no rm_02_add_account_run_mins_no add account rma GrpTRESRunMins=cpu=100,node=4 GrpTRESMins=cpu=5
no rm_03_add_account_run_mins_clear_no add account rma GrpTRESRunMins=cpu=-1 MaxTRESMins=cpu=9
