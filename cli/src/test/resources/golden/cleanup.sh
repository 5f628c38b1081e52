#!/bin/bash
# Undoes setup.sh: cancels the jobs it submitted, resumes n4, removes partition "long".
IDS=/tmp/corral-golden-jobs
[ -s $IDS ] && /usr/bin/scancel $(cat $IDS)
sleep 2
/usr/bin/scontrol update nodename=n4 state=resume
/usr/bin/scontrol delete partitionname=long
rm -f /tmp/slurm-*.out $IDS
