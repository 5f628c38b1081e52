#!/bin/sh
# Records the tl_* cases (time limits: GrpTRESMins, GrpWall, MaxTRESMins) from the reference
# Slurm 22.05 with slurmdbd (bench/reference/accounting.sh), as root, then removes what it made.
# Each case: NAME.cmd (the command line), NAME.out, NAME.err, NAME.rc.
. "$(dirname "$0")/record-lib.sh"
run tl_01_add_account_limits $S -i add account tla GrpTRESMins=cpu=100 GrpWall=30 MaxTRESMins=cpu=50 MaxWall=10
run tl_02_add_qos_limits $S -i add qos tlq GrpTRESMins=cpu=200 GrpWall=1:00:00 MaxTRESMins=cpu=20,node=4
run tl_03_modify_account_tres_mins $S -i modify account tla set GrpTRESMins=cpu=120,mem=1000 MaxTRESMinsPerJob=cpu=60
run tl_04_show_assoc_time_limits $S show assoc where account=tla format=account,user,grptresmins,grpwall,maxtresmins,maxwall
run tl_05_show_assoc_time_limits_P $S show assoc where account=tla format=account,grptresmins,grpwall,maxtresmins,maxwall -P
run tl_06_modify_unknown_tres $S -i modify account tla set GrpTRESMins=bogus=5
run tl_07_modify_qos_time_limits $S -i modify qos tlq set GrpTRESMins=cpu=-1 MaxTRESMinsPerJob=cpu=30 GrpWall=45
run tl_08_show_qos_time_limits $S show qos tlq format=name,grptresmins,grpwall,maxtresmins,maxwall
run tl_09_show_qos_p $S show qos tlq -p
$S -i delete account tla > /dev/null
$S -i delete qos tlq > /dev/null
