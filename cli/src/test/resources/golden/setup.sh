#!/bin/bash
# Builds the reference state on a running Slurm 22.05 (run as root): a second partition, jobs of
# three users in many states, a drained node. cleanup.sh undoes it.
set -e
IDS=/tmp/corral-golden-jobs
: > $IDS
SB=/usr/bin/sbatch
as() { local u=$1; shift; su -s /bin/sh "$u" -c "cd /tmp && $*"; }
/usr/bin/scontrol create partitionname=long nodes=n[3-4] maxtime=2-00:00:00 defaulttime=1:00:00 state=up
# finished jobs (visible for MinJobAge seconds)
$SB --parsable -p debug -J quick --chdir=/tmp --wrap 'true' >> $IDS
$SB --parsable -p debug -J failing --chdir=/tmp --wrap 'false' >> $IDS
sleep 1
# running jobs
$SB --parsable -p debug -J rootjob1 -t 10 --chdir=/tmp --wrap 'sleep 300' >> $IDS
as corral-alice "$SB --parsable -p long -N2 -n2 -J alicewide --chdir=/tmp --wrap 'sleep 300'" >> $IDS
sleep 2
as corral-bob "$SB --parsable -p debug -n8 -J bigbob --chdir=/tmp --wrap 'sleep 300'" >> $IDS
$SB --parsable -p debug -J averyverylongjobname -t 1-00:00:00 --chdir=/tmp --wrap 'sleep 300' >> $IDS
# pending jobs
as corral-bob "$SB --parsable -p debug -N4 -J waitall --chdir=/tmp --wrap 'sleep 300'" >> $IDS
as corral-bob "$SB --parsable -p debug -N3 -J behind --chdir=/tmp --wrap 'sleep 300'" >> $IDS
as corral-bob "$SB --parsable -p debug -H -J heldbob --chdir=/tmp --wrap 'sleep 300'" >> $IDS
as corral-alice "$SB --parsable -p debug -t 30 --begin=now+1hour -J later --chdir=/tmp --wrap 'sleep 300'" >> $IDS
DEP=$($SB --parsable -p debug -N4 -J depsrc --chdir=/tmp --wrap 'sleep 300'); echo $DEP >> $IDS
$SB --parsable -p debug -d afterok:$DEP -J depjob --chdir=/tmp --wrap 'sleep 300' >> $IDS
ADM=$($SB --parsable -p long -N2 -J adminheld --chdir=/tmp --wrap 'sleep 300'); echo $ADM >> $IDS
/usr/bin/scontrol hold $ADM
CAN=$($SB --parsable -p debug -N4 -J cancelme --chdir=/tmp --wrap 'sleep 300'); echo $CAN >> $IDS
/usr/bin/scancel $CAN
/usr/bin/scontrol update nodename=n4 state=drain reason=maint
# Distinct priorities (not in id order) make the default sort order fully determined.
P=(0 0 0 40 35 60 20 55 30 0 45 25 50 0 0)
for i in 3 4 5 6 7 8 10 11 12; do
  /usr/bin/scontrol update jobid=$(sed -n ${i}p $IDS) priority=${P[$i]}
done
sleep 4
