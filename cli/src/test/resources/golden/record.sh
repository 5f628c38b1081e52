#!/bin/bash
# Re-records every golden output: builds the state, captures, cleans up. Run as root on a machine
# with Slurm 22.05 running and users corral-alice and corral-bob. Keep /tmp/corral-golden-jobs'
# contents (the job ids) in the README: the tests' fixtures use them.
cd "$(dirname "$0")"
if [ -n "$(/usr/bin/squeue -h -t all -o %i)" ]; then echo "other jobs are in the queue: wait until it is empty" >&2; exit 1; fi
./setup.sh && ./capture.sh
cp /tmp/corral-golden-jobs jobids.txt
/usr/bin/scontrol show job -o > state-jobs.txt
/usr/bin/scontrol show node -o > state-nodes.txt
/usr/bin/scontrol show partition -o > state-partitions.txt
./cleanup.sh
