#!/bin/bash
# Third-party tool recording: the exact command lines Nextflow, Snakemake 7, submitit, Open
# OnDemand (ood_core) and the Prometheus Slurm exporters run, recorded on the reference Slurm
# 22.05 or on a Corral cluster through the live recording's harness (../live/record-lib.sh:
# same cluster set-up, file layout, first-id, RPC capture), in one fixed queue: completed,
# failed and cancelled jobs, running jobs, a throttled array, held and too-big pending jobs,
# n4 drained. ThirdPartyCommandsTest replays corral/ and compares with ref/.
#
#   record.sh ref; record.sh corral; REC=. ../live/compare.sh    # (from this directory)
#
# Run as root with an empty queue, like live/record.sh (KEEP_HELD=1 record.sh ref tolerates held
# jobs someone left on the reference: see record-lib.sh). Finished jobs stay listed for
# MinJobAge=30 s: the commands that show them come first.
set -u
rec=$(cd "$(dirname "$0")" && pwd)
. "$(dirname "$0")/../live/record-lib.sh"
if [ "$(id -u)" != 0 ]; then echo "run as root" >&2; exit 1; fi
mkdir -p /tmp/nf-work /tmp/submitit /tmp/.snakemake/slurm_logs/rule_a

# ---- the queue (ids 1-9)
submit S sbatch --parsable -p debug -J quick --chdir=/tmp --wrap true                        # 1
settle 2   # quick is done: failing takes the same CPU on both systems (scontrol -dd's CPU_IDs)
submit S sbatch --parsable -p debug -J failing --chdir=/tmp --wrap 'exit 3'                  # 2
submit S sbatch --parsable -p debug -H -J cancelme --chdir=/tmp --wrap true                  # 3
S scancel "$(J 3)"
submit S sbatch --parsable -p debug -J runner -t 10 --chdir=/tmp --wrap 'sleep 600'          # 4
submit S sbatch --parsable -p debug --array=0-3%2 -t 30 -J arr --chdir=/tmp --wrap 'sleep 600' # 5
settle 2
wait_running "$(J 5)" 2
submit S sbatch --parsable -p debug -H -J heldjob --chdir=/tmp --wrap 'sleep 600'            # 6
# In long, not debug: a pending job the main scheduler cannot place holds back the partition's
# later jobs on the reference until the next backfill pass (Priority), Corral's plans at once.
submit S sbatch --parsable -p long -N2 -J waitall --chdir=/tmp --wrap 'sleep 600'            # 7
settle 3
ALL=$(J 1),$(J 2),$(J 3),$(J 4),$(J 5),$(J 6),$(J 7)
SEP=$'\x1E'; US=$'\x1F'
OOD_FIELDS=(%a %A %B %c %C %d %D %e %E %f %F %g %G %h %H %i %I %j %J %k %K %l %L %m %M %n %N
  %o %O %q %P %Q %r %S %t %T %u %U %v %V %w %W %x %X %y %Y %z %Z %b)
OOD_FORMAT=$SEP$(IFS=$US; echo "${OOD_FIELDS[*]}")

# Nextflow (SlurmExecutor): queue status in its three generations, submission, kill
c nf_squeue_user squeue --noheader -o '%i %t' -t all -u root
c nf_squeue_part squeue --noheader -o '%i %t' -t all -p debug -u root
c nf_squeue_me squeue --noheader -o '%i %t' -t all --me
c nf_squeue_jobs squeue --noheader -o '%i %t' -t all -j "$ALL"
# Snakemake 7 (--slurm): status by sacct, fallback scontrol, account and partition guesses (its
# account guess, sacct -nu USER -o Account%20, lists every job of the day: not reproducible)
c smk_sacct sacct -P -n --format=JobIdRaw,State -j "$(J 1)"
c smk_sacct_failed sacct -P -n --format=JobIdRaw,State -j "$(J 2)"
c smk_sacct_cancelled sacct -P -n --format=JobIdRaw,State -j "$(J 3)"
c smk_scontrol scontrol show jobid -dd "$(J 2)"
c smk_sacctmgr_account sacctmgr -n -s list user root format=account%20
c smk_sinfo_partitions sinfo -o %P
# submitit: status of several jobs, with steps
c submitit_sacct sacct -o JobID,State,NodeList --parsable2 -j "$ALL"
# Open OnDemand (ood_core): every job, one job, one user; cluster info; node details
c ood_squeue_all squeue --all --states=all --noconvert -o "$OOD_FORMAT"
c ood_squeue_job squeue --all --states=all --noconvert -o "$OOD_FORMAT" -j "$(J 4)"
c ood_squeue_failed squeue --all --states=all --noconvert -o "$OOD_FORMAT" -j "$(J 2)"
c ood_squeue_user squeue --all --states=all --noconvert -o "$SEP%A$US%t" -u root
c ood_sinfo_info sinfo -aho %A/%D/%C
c ood_scontrol_job scontrol show job "$(J 4)"
c ood_scontrol_nodes scontrol show nodes -o
# Prometheus exporters (vpenso's, rivosinc's squeue/sinfo fallbacks)
c prom_accounts squeue -a -r -h -o '%A|%a|%T|%C'
c prom_users squeue -a -r -h -o '%A|%u|%T|%C'
c prom_queue squeue -a -r -h -o '%A,%T,%r' --states=all
c prom_pending squeue -a -r -h -o%P --states=PENDING
c prom_cpus sinfo -h -o %C
c prom_nodes sinfo -h -o '%D|%T|%b'
c prom_nodes_old sinfo -h -o '%D,%T'
c prom_node sinfo -h -N -O NodeList,AllocMem,Memory,CPUsState,StateLong
c prom_partitions sinfo -h -o '%R,%C'
c prom_gpus_alloc sinfo -a -h '--Format=Nodes: ,GresUsed:' --state=allocated
c prom_gpus_total sinfo -a -h '--Format=Nodes: ,Gres: '
c prom_node_cpus sinfo -h -o '%n,%C'
c prom_sshare sshare -n -P -o account,fairshare
c rivos_squeue squeue -h -o '%a|%A|%e|%u|%T|%P|%C|%m|%K'
c rivos_sinfo sinfo -h -o '%T|%m|%n|%R|%C|%w'   # less its load and free memory
# Submissions: Nextflow's .command.run, submitit's script, OOD's --export=NONE, Snakemake's call
c nf_sbatch sbatch nf.command.run
NF=$(last_id)
c submitit_sbatch sbatch --parsable submitit.sh
SUBMITIT=$(last_id)
c ood_sbatch sbatch --export=NONE --parsable -H ood.sh
OOD=$(last_id)
c smk_sbatch sbatch -J 8a4e6f0c-smk -o .snakemake/slurm_logs/rule_a/%j.log --export=ALL -p debug \
  -t 5 --mem 100 --cpus-per-task=1 -D /tmp "--wrap=echo done"
SMK=$(last_id)
settle 5   # the reference's scheduler starts new jobs a few seconds later, Corral's at once
c nf_sbatch_shown squeue -j "$NF" -o '%i %j %l %m %c %P %T %r'
c submitit_sbatch_shown squeue -j "$SUBMITIT" -o '%i %j %l %D %C %T'
c smk_sbatch_shown squeue -j "$SMK" -o '%i %j %l %m %c %Z %T %r'
c ood_hold scontrol hold "$OOD"
c ood_hold_shown squeue -j "$OOD" -o '%i %t %r'
c ood_release scontrol release "$OOD"
c ood_scancel scancel "$OOD"
c nf_scancel scancel "$NF"
c smk_scancel scancel "$SMK"
settle 5
c submitit_sacct_done sacct -o JobID,State,NodeList --parsable2 -j "$NF,$SUBMITIT,$OOD,$SMK"
c smk_sacct_done sacct -P -n --format=JobIdRaw,State -j "$SMK"

finish
rm -rf /tmp/nf-work /tmp/submitit /tmp/.snakemake
