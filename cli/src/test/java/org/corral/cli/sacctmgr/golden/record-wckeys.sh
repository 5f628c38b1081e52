#!/bin/sh
# Records the wk_* cases (workload characterization keys) from the reference Slurm 22.05 with
# slurmdbd (bench/reference/accounting.sh), as root, then removes what it made. Slurm's sacctmgr
# has no add/delete wckey: wckeys are added and removed through users (WCKeys=, DefaultWCKey=).
# Each case: NAME.cmd (the command line), NAME.out, NAME.err, NAME.rc.
. "$(dirname "$0")/record-lib.sh"
run wk_01_show_empty $S show wckey
run wk_02_add_user_wckeys $S -i add user wkuser account=root wckeys=wk1,wk2 defaultwckey=wk1
run wk_03_show $S show wckey
run wk_04_show_P_id $S show wckey format=wckey,cluster,user,id -P
run wk_05_show_where_name $S show wckey where name=wk1
run wk_06_show_user_n $S list wckeys where user=wkuser format=wckey,user -n
run wk_07_add_wckey_to_user $S -i add user wkuser wckeys=wk3
run wk_08_add_nothing_new $S -i add user wkuser wckeys=wk1
run wk_09_show_user_defwckey $S show user wkuser format=user,defaultwckey,defaultaccount
run wk_10_format_width $S show wckey format=wckey%20,user%-8
run wk_11_delete_user_wckey $S -i delete user wkuser wckeys=wk3
run wk_12_show_after_delete $S show wckey -p
run wk_13_bad_field $S show wckey format=bogus
run wk_14_bad_condition $S show wckey bogus=1
run wk_15_add_wckey_refused $S -i add wckey name=wk9 user=wkuser
run wk_16_delete_wckey_refused $S -i delete wckey name=wk1
run wk_17_show_other_cluster $S show wckey where cluster=nope
run wk_18_new_user_no_account $S -i add user wknew wckeys=wk1
run wk_19_add_user_defwckey_only $S -i add user wknew2 account=root defaultwckey=wk5
run wk_20_show_all $S show wckey format=wckey,user
$S -i delete user wkuser > /dev/null
$S -i delete user wknew2 > /dev/null
$S -i delete user wknew > /dev/null 2>&1
