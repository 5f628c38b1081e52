#!/bin/bash
# Fidelity recording (issue 28): the command lines R's batchtools and rslurm run (squeue's flag
# states, sacct's -S 1970-01-01, sbatch --wait), every state and flag state squeue -t and sacct -s
# take, and sbatch's --wait-all-nodes, recorded on the reference Slurm 22.05 or on a Corral
# cluster through the live recording's harness (../live/record-lib.sh). FidelityCommandsTest
# replays corral/ and compares with ref/.
#
#   record.sh ref; record.sh corral; REC=. ../live/compare.sh    # (from this directory)
#
# Run as root with an empty queue, like live/record.sh. For a private reference (its own
# slurm.conf, with a slurmdbd for sacct), export SLURM_CONF before `record.sh ref`.
set -u
rec=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/../live/record-lib.sh"
if [ "$(id -u)" != 0 ]; then echo "run as root" >&2; exit 1; fi

# ---- the queue (ids 1-4)
submit S sbatch --parsable -p debug -J quick --chdir=/tmp --wrap true                        # 1
settle 2
submit S sbatch --parsable -p debug -J failing --chdir=/tmp --wrap 'exit 3'                  # 2
submit S sbatch --parsable -p debug -J runner -t 10 --chdir=/tmp --wrap 'sleep 600'          # 3
submit S sbatch --parsable -p debug -H -J heldjob --chdir=/tmp --wrap 'sleep 600'            # 4
settle 3

# batchtools and rslurm (and -t all first: finished jobs are listed for MinJobAge=30 s)
c squeue_states_all squeue -h -o '%i %t' --states=ALL
c bt_squeue squeue -h --format '%i %t %M'
c bt_squeue_running squeue --noheader --format=%i --user=root --states=R,S,CG,RS,SI,SO,ST
c bt_squeue_queued squeue --noheader --format=%i --user=root --states=PD,CF,RF,RH,RQ,SE
c bt_sacct sacct -n -j "$(J 2)" --format JobIDRaw,State,ExitCode -P -S 1970-01-01
c bt_sacct_done sacct -n -j "$(J 1)" --format JobIDRaw,State,ExitCode -P -S 1970-01-01
# squeue -t: every flag state by name, in any case; empty words; what it refuses
c squeue_flag_names squeue -h -o %i -t configuring,Resizing,REQUEUED,requeue_fed,requeue_hold,resv_del_hold,revoked,signaling,stage_out,stopped,special_exit,completing
c squeue_flag_codes squeue -h -o %i -t cf,rs,rq,rf,rh,rd,rv,si,so,st,se,cg
c squeue_states_comma squeue -h -o %i -t r,,pd,
c squeue_states_empty squeue -h -o %i -t ''
c squeue_states_space squeue -h -o %i -t 'r, pd'
c squeue_states_bogus squeue -h -t LAUNCH_FAILED
c squeue_states_env SQUEUE_STATES=pd,rs squeue -h -o %i
# sacct -s: flag states are not accounted; the others select
c sacct_states_flag sacct -n -X -s CG -j "$(J 1)"
c sacct_states_se sacct -n -X -s R,SE -j "$(J 1)"
c sacct_states_untracked sacct -n -X -P -s RS,RQ,RV,CD -j "$(J 1),$(J 2)" -o JobID,State -S 1970-01-01
c sacct_states_space sacct -n -X -s 'R, PD' -j "$(J 1)"
c sacct_states_bogus sacct -n -X -s all -j "$(J 1)"
# sbatch --wait: the job's exit code; --wait-all-nodes
c sbatch_wait sbatch -W -o /dev/null --chdir=/tmp --wrap 'exit 3'
c sbatch_wait_parsable sbatch --wait --parsable -o /dev/null --chdir=/tmp --wrap true
c sbatch_wait_killed sbatch -W -o /dev/null --chdir=/tmp --wrap 'kill -9 $$'
c sbatch_wait_all_nodes sbatch --parsable --wait-all-nodes=1 -o /dev/null --chdir=/tmp --wrap true
c sbatch_wait_all_nodes_bad sbatch --wait-all-nodes=2 --wrap true
c sbatch_wait_all_nodes_nan sbatch --wait-all-nodes=1x --wrap true

finish
