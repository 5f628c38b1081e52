#!/bin/sh
# Records the plnd_* cases (sreport cluster utilization with PLND Down) from the reference Slurm
# 22.05 with slurmdbd (bench/reference/accounting.sh), as root, in two steps:
#   record-plnd.sh setup   some minutes before an hour ends: a MAINT reservation on n4 from
#                          HH:10 for 3 minutes, n3 set FAIL from HH:11 for 2 minutes
#   record-plnd.sh record HOUR   after slurmdbd's hourly rollup of HOUR (2026-11-24T08): runs the
#                          cases over that hour, prints the hour's reference_usage_hour_table row
#                          (TRES 1) and removes what setup added (reservation row, n3's event;
#                          the usage row keeps its numbers: see the note printed)
# Each case: plnd_NN.args (sreport's arguments), .out, .err, .rc.
set -eu
cd "$(dirname "$0")"
case "$1" in
  setup)
    h=$(date +%Y-%m-%dT%H)
    /usr/bin/scontrol create reservation reservationname=corral_maint starttime="$h:10:00" duration=3 \
      nodes=n4 flags=maint users=root
    while [ "$(date +%s)" -lt "$(date -d "$h:11:00" +%s)" ]; do sleep 1; done
    /usr/bin/scontrol update nodename=n3 state=fail reason="fan noise"
    sleep 120
    /usr/bin/scontrol update nodename=n3 state=resume ;;
  record)
    h=$2
    e=$(date -d "@$(($(date -d "$h:00:00" +%s) + 3600))" +%Y-%m-%dT%H:%M:%S)
    n=0
    for a in "cluster utilization start=$h:00:00 end=$e" \
        "cluster utilization start=$h:00:00 end=$e -t seconds" \
        "-P cluster utilization start=$h:00:00 end=$e" \
        "cluster utilization start=$h:00:00 end=$e -t percent" \
        "-p cluster utilization start=$h:00:00 end=$e format=cluster,planneddown,down,idle"; do
      n=$((n + 1))
      c=$(printf 'plnd_%02d' $n)
      echo "$a" > "$c.args"
      set +e
      # shellcheck disable=SC2086
      /usr/bin/sreport $a > "$c.out" 2> "$c.err"
      echo $? > "$c.rc"
      set -e
    done
    t=$(date -d "$h:00:00" +%s)
    mysql -uroot -h127.0.0.1 slurm_acct_db -e "SELECT count, alloc_secs, down_secs, pdown_secs, idle_secs,
      plan_secs, over_secs FROM reference_usage_hour_table WHERE time_start = $t AND id_tres = 1"
    mysql -uroot -h127.0.0.1 slurm_acct_db -e "DELETE FROM reference_resv_table WHERE resv_name = 'corral_maint';
      DELETE FROM reference_event_table WHERE node_name = 'n3' AND reason = 'fan noise' AND time_start >= $t"
    echo "note: the hour's usage row still counts them; give its pdown_secs and down_secs back to idle_secs" ;;
esac
