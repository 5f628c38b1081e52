#!/bin/bash
# Undoes setup.sh: cancels the jobs it submitted, resumes n4, removes partition "long" and the
# output files of those jobs (only theirs: others may be using the same Slurm).
IDS=/tmp/corral-golden-jobs
[ -s $IDS ] && /usr/bin/scancel $(cat $IDS)
sleep 2
/usr/bin/scontrol update nodename=n4 state=resume
/usr/bin/scontrol delete partitionname=long
for id in $(cat $IDS); do rm -f "/tmp/slurm-$id.out"; done
rm -f $IDS
