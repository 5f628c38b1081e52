#!/bin/sh
# Records the cf_* cases (sacctmgr show configuration: the client's slurm.conf settings, then
# slurmdbd's) from the reference Slurm 22.05 with slurmdbd (bench/reference/accounting.sh), as
# root. It changes nothing. Each case: NAME.cmd (the command line), NAME.out, NAME.err, NAME.rc.
. "$(dirname "$0")/record-lib.sh"
run cf_01_show_configuration $S show configuration
run cf_02_list_config_np $S list config -n -P
