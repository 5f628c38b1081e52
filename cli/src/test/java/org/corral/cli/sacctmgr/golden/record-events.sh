#!/bin/sh
# Records the ev_* cases (sacctmgr show event) from the reference Slurm 22.05 with slurmdbd
# (bench/reference/accounting.sh), as root: makes node events (n4 drained with a reason and
# resumed, n3 down, resumed, failed, resumed), then lists them. events.psv keeps every event the
# reference then had and events.now the time of recording: the fake slurmdbd of
# SacctmgrEventsGoldenTest serves them. Each case: NAME.cmd, NAME.out, NAME.err, NAME.rc.
. "$(dirname "$0")/record-lib.sh"
C=/usr/bin/scontrol
$C update nodename=n4 state=drain reason="corral maintenance"; sleep 2
$C update nodename=n4 state=resume; sleep 2
$C update nodename=n3 state=down reason="bad disk"; sleep 2
$C update nodename=n3 state=resume; sleep 2
$C update nodename=n3 state=fail reason="fan noise"; sleep 2
$C update nodename=n3 state=resume; sleep 2
date +%s > events.now
$S show event all_time format=nodename,start,end,stateraw,reason,user,tres,clusternodes -P -n > events.psv
run ev_01_default $S show event
run ev_02_list_P $S list events -P
run ev_03_np $S show event -n -p
run ev_04_nodes $S show event nodes=n4
run ev_05_event_node $S show event event=node
run ev_06_event_cluster $S show event event=cluster
run ev_07_states_open $S show event states=drain
run ev_08_states_down_all_time $S show event states=DOWN all_time
run ev_09_user_root $S show event user=root
run ev_10_user_slurm $S show event user=slurm
run ev_11_reason $S show event reason=FAN
run ev_12_where_nodes $S show event where nodes=n3
run ev_13_all_fields $S show event format=cluster,clusternodes,end,event,eventraw,nodename,reason,start,state,stateraw,tres,user event=node
run ev_14_all_fields_p $S show event format=cluster,clusternodes,end,event,eventraw,nodename,reason,start,state,stateraw,tres,user -p
run ev_15_format_width $S show event format=nodename%-6,reason%12,state event=node
run ev_16_bad_field $S show event format=bogus
run ev_17_bad_event $S show event event=bogus
run ev_18_bare_word $S show event n3
run ev_19_bad_state $S show event states=down*
run ev_20_bad_condition $S show event foo=bar
run ev_21_bad_user $S show event user=nosuchuser
run ev_22_bad_start $S show event start=bogus event=node
run ev_23_open $S show event condflags=open
run ev_24_nodes_range $S show event nodes=n[3-4] event=node
run ev_25_states_drain_start $S show event states=drain start=2026-01-01
run ev_26_closed_duration $S show event event=node format=nodename,duration,state
run ev_27_other_cluster $S show event clusters=other
run ev_28_mincpus_bad $S show event mincpus=x event=node
