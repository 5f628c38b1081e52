#!/bin/bash
# Live golden recording: drives one fixed sequence of cluster states and records what the user
# commands print in each, on the reference Slurm 22.05 or on a Corral cluster.
#
#   record.sh ref             # /usr/bin/* against the running Slurm (port 6817): writes ref/
#   record.sh corral          # a fresh Corral cluster: writes corral/
#   ./compare.sh              # case by case, masked as the golden test masks
#
# Run as root, from anywhere, with users corral-alice and corral-bob present and no other jobs
# in the queue. Record ref first: it writes first-id (the job id the reference gave the probe
# job), and the Corral run starts its cluster with FirstJobId at that id, so both runs give the
# same ids to the same jobs. Corral's cluster: CORRAL_DIR (default /tmp/cli-c, recreated),
# CORRAL_PORT_BASE (default 15817); Corral must be built (build/lib, and cli's test classes:
# ./mvnw -B -o -q -pl cli -am test-compile).
#
# Per case NAME (numbered in order) the output directory holds NAME.args (one argument a line,
# the command first), NAME.env (VAR=value lines the case adds), NAME.out, NAME.err, NAME.rc and
# NAME.time (epoch second). On Corral each command runs through org.corral.cli.RpcRecording,
# which also writes NAME.rpc: the controller's (and slurmdbd's) answers, which
# LiveGoldenTest replays to run Corral's commands offline and compare with ref/.
#
# The sequence: phase 1 has finished jobs (completed, failed, cancelled) and is recorded
# quickly (MinJobAge=30 s); phase 2 waits until they are purged, then records a stable queue
# (running jobs, a throttled array, held, begin-time, dependent and too-big pending jobs,
# partitions debug/long/short/closed, n3 draining, n4 drained); phase 3 records commands that
# change state (holds, updates, scancel, sbatch and its SBATCH_* precedence) each followed by
# what they changed. Partitions long, short and closed are created with scontrol on the
# reference (and written in slurm.conf for Corral); the end undoes everything on the reference.
set -u
# The shared harness is record-lib.sh (sourced with rec=the recording's directory): the tools
# recording (golden/tools/record.sh) runs its own sequence on the same cluster set-up.
rec=$(cd "$(dirname "$0")" && pwd)
. "$rec/record-lib.sh"
# ---- phase 1: finished jobs (ids 1-3)
submit S sbatch --parsable -p debug -J quick --chdir=/tmp --wrap true
submit S sbatch --parsable -p debug -J failing --chdir=/tmp --wrap 'exit 3'
submit S sbatch --parsable -p debug -H -J cancelme --chdir=/tmp --wrap true
S scancel "$(J 3)"
settle 3
c p1_squeue_all squeue -t all
c p1_squeue_done squeue -t CD,F,CA -o '%i %j %T %r %N %D'
c p1_squeue_done_long squeue -t all -l
c p1_squeue_fmt_exit squeue -t all -o '%.8i %.9P %.8j %.8u %.10T %.6D %R'
c p1_scontrol_completed scontrol show job "$(J 1)"
c p1_scontrol_failed scontrol show job "$(J 2)"
c p1_scontrol_cancelled scontrol show job "$(J 3)"
c p1_scontrol_failed_oneliner scontrol -o show job "$(J 2)"
c p1_squeue_job_done squeue -j "$(J 1)"
c p1_squeue_state_done squeue -h -t CD -o %i
c p1_sacct sacct -X -n -j "$(J 1),$(J 2),$(J 3)" -o JobID,JobName,Partition,State,ExitCode
c p1_sacct_parsable sacct -P -j "$(J 2)" -o JobID,JobName,State,ExitCode,NNodes,NodeList
c p1_scancel_done scancel "$(J 1)"
c p1_scancel_done_v scancel -v "$(J 2)"
wait_gone "$(J 1)" "$(J 2)" "$(J 3)"

# ---- phase 2: a stable queue (ids 4-13)
submit S sbatch --parsable -p debug -J rootjob -t 10 --chdir=/tmp --wrap 'sleep 600'           # 4
submit as corral-alice sbatch --parsable -p long -n8 -J alicewide --wrap 'sleep 600'            # 5
settle 2
submit as corral-bob sbatch --parsable -p debug -n8 -J bigbob --wrap 'sleep 600'                # 6
submit S sbatch --parsable -p debug --array=0-5%2 -t 30 -J arr --chdir=/tmp --wrap 'sleep 600'  # 7
settle 2
wait_running "$(J 7)" 2
submit as corral-bob sbatch --parsable -p debug -N4 -J waitall --wrap 'sleep 600'               # 8
submit as corral-bob sbatch --parsable -p debug -H -J heldbob --wrap 'sleep 600'                # 9
submit as corral-alice sbatch --parsable -p short -t 20 --begin=now+1hour -J later --wrap 'sleep 600' # 10
submit S sbatch --parsable -p debug -d afterok:"$(J 8)" -J depjob --chdir=/tmp --wrap 'sleep 600' # 11
submit S sbatch --parsable -p long -N2 -J adminheld --chdir=/tmp --wrap 'sleep 600'            # 12
S scontrol hold "$(J 12)"
submit S sbatch --parsable -p debug -N4 --array=1-3 -J arrpend --chdir=/tmp --wrap 'sleep 600' # 13
settle 3
S scontrol update nodename=n3 state=drain reason=maint
# Distinct priorities (not in id order) make the default sort order fully determined.
S scontrol update jobid="$(J 8)" priority=500
S scontrol update jobid="$(J 11)" priority=700
S scontrol update jobid="$(J 13)" priority=600
for i in 4 5 6 7; do S scontrol update jobid="$(J $i)" priority=$((1000 - 100 * i)); done
settle 3
ARR=$(J 7)
c squeue_default squeue
c squeue_long squeue -l
c squeue_noheader squeue -h
c squeue_all squeue -a
c squeue_steps squeue -s
c squeue_steps_job squeue -s -j "$(J 4)"
c squeue_steps_fmt squeue -s -o '%i|%j|%u|%N|%P'
c squeue_start squeue --start
c squeue_start_job squeue --start -j "$(J 8)"
c squeue_array_expand squeue -r
c squeue_array_job squeue -j "$ARR"
c squeue_array_job_r squeue -r -j "$ARR"
c squeue_array_task squeue -j "${ARR}_1"
c squeue_array_pending_task squeue -j "${ARR}_4"
c squeue_array_fmt squeue -r -o '%i %A %a %F %K %j %T'
c squeue_states_all squeue -t all
c squeue_states_pd squeue -t PD
c squeue_states_names squeue -t pending,running
c squeue_states_bad squeue -t bogus
c squeue_user squeue -u corral-bob
c squeue_user_uid squeue -u 1001,0
c squeue_user_unknown squeue -u nosuchuser
c squeue_user_space squeue --user corral-alice
c squeue_me squeue --me
c squeue_part squeue -p long
c squeue_parts squeue -p debug,short
c squeue_part_unknown squeue -p nosuch
c squeue_jobs squeue -j "$(J 4),$(J 6)"
c squeue_jobs_long squeue --jobs="$(J 5)"
c squeue_job_invalid squeue -j 999999
c squeue_job_bad squeue -j abc
c squeue_name squeue -n bigbob,later
c squeue_name_long squeue --name=arr
c squeue_nodelist squeue -w n1
c squeue_account squeue -A root
c squeue_qos squeue -q normal
c squeue_sort_name squeue -S j
c squeue_sort_desc_id squeue -S -i
c squeue_sort_user_state squeue -S u,-t
c squeue_sort_prio squeue -S P,-p
c squeue_sort_env SQUEUE_SORT=-j squeue
c squeue_sort_env_cmd SQUEUE_SORT=-j squeue -S i
c squeue_fmt_basic squeue -o '%i %j %u %t %T %P'
c squeue_fmt_widths squeue -o '%.5i|%-10j|%.3u|%5P|%.20T'
c squeue_fmt_a squeue -o '%A %a %b %c %C %d %D'
c squeue_fmt_e squeue -o '%i %e %E %f %F %g %G %h %H %I %J %k %K'
c squeue_fmt_l squeue -o '%i %l %m %M %n %N %o'
c squeue_fmt_p squeue -o '%i %O %p %P %q %Q %r %R'
c squeue_fmt_s squeue -o '%i %S %t %T %u %U %v %V %w %W %x %X %y %Y %z %Z'
c squeue_fmt_literal squeue -o 'JOB=%i;%%;%j end'
c squeue_fmt_attached squeue -o%i
c squeue_fmt_space squeue "-o %i %j"
c squeue_fmt_bundle squeue -ho %i,%t
c squeue_fmt_prefix squeue --form=%i:%j
c squeue_fmt_unknown squeue -o '%i %!'
c squeue_fmt_size_suffix squeue -o '%5i%-6j%.4t'
c squeue_Format squeue -O JobID,Name,UserName,State,TimeLimit,NumNodes,ReasonList
c squeue_Format_widths squeue -O 'JobID:8,Partition:.10,Name:5'
c squeue_Format_colon squeue -O 'JobID:,Name:|,State'
c squeue_Format_suffix squeue -O 'JobID:6|,Name:10;'
c squeue_Format_array squeue -r -O ArrayJobID,ArrayTaskID,JobArrayID,Name
c squeue_Format_misc squeue -O Dependency,Reason,Priority,NumCPUs,MinMemory,TimeLeft,Partition
c squeue_Format_more squeue -O JobID,Account,QOS,WorkDir,Command
c squeue_Format_nodes squeue -O JobID,NodeList,NumTasks,MinCpus,Nice,Shared,BatchHost
c squeue_Format_bad squeue -O JobID,NoSuchField
c squeue_format_env SQUEUE_FORMAT='%.4i %j' squeue
c squeue_format2_env SQUEUE_FORMAT2='JobID:6,Name:10' squeue
c squeue_format_env_cmd SQUEUE_FORMAT='%.4i %j' squeue -o %i
c squeue_format_both SQUEUE_FORMAT='%.4i %j' SQUEUE_FORMAT2='JobID:6,Name:10' squeue
c squeue_users_env SQUEUE_USERS=corral-alice squeue
c squeue_part_env SQUEUE_PARTITION=long squeue
c squeue_noconvert squeue --noconvert -o '%i %m'
c squeue_noconvert_O squeue --noconvert -O JobID,MinMemory
c squeue_mem squeue -o '%i %m'
c squeue_bad_opt squeue --bogus
c squeue_bad_short squeue -Z
c squeue_missing_arg squeue -o
c squeue_operand squeue extra
c squeue_dashdash squeue -h -- -x
c squeue_combo squeue -h -t R -o %i,%N
c squeue_help_usage squeue --usage
c sinfo_default sinfo
c sinfo_node sinfo -N
c sinfo_long sinfo -l
c sinfo_node_long sinfo -N -l
c sinfo_summarize sinfo -s
c sinfo_reasons sinfo -R
c sinfo_reasons_long sinfo -R -l
c sinfo_reservations sinfo -T
c sinfo_exact sinfo -e
c sinfo_noheader sinfo -h
c sinfo_all sinfo -a
c sinfo_dead sinfo -d
c sinfo_responding sinfo -r
c sinfo_part sinfo -p long
c sinfo_part_closed sinfo -p closed
c sinfo_part_unknown sinfo -p nosuch
c sinfo_nodes sinfo -n 'n[1-2]'
c sinfo_nodes_node sinfo -N -n n3,n4
c sinfo_states_idle sinfo -t idle
c sinfo_states_drain sinfo -t drain
c sinfo_states_down sinfo -t down
c sinfo_states_alloc_mix sinfo -t alloc,mix
c sinfo_states_bad sinfo -t bogus
c sinfo_fmt_basic sinfo -o '%P %a %l %L %D %T %t %N'
c sinfo_fmt_cpus sinfo -o '%P %c %C %F %m %z %s'
c sinfo_fmt_misc sinfo -o '%P %R %f %G %w %h %g %S %p %r %V %B %k %x %y'
c sinfo_fmt_reason sinfo -o '%P %E %u %T %N'
c sinfo_fmt_node sinfo -N -o '%N %n %T %t %E %m %C %D'
c sinfo_fmt_nopart sinfo -o '%D %T %N'
c sinfo_fmt_nostate sinfo -o '%D %C %N'
c sinfo_fmt_widths sinfo -o '%10P|%.3T|%-12N|%.2D'
c sinfo_fmt_hash sinfo -o '%#P %#N %#T'
c sinfo_fmt_attached sinfo -o%P
c sinfo_fmt_bundle sinfo -ho '%P %t'
c sinfo_Format sinfo -O partition,nodes,statecompact,nodelist
c sinfo_Format_widths sinfo -O 'Partition:10,StateLong:.12,NodeList:'
c sinfo_Format_cpus sinfo -O cpusstate,cpus,memory,allocmem,nodes
c sinfo_Format_node sinfo -N -O NodeList,StateLong,Reason,CPUsState
c sinfo_Format_bad sinfo -O partition,bogus
c sinfo_format_env SINFO_FORMAT='%P %D %t' sinfo
c sinfo_bad_opt sinfo --bogus
c sinfo_combo sinfo -Nh -t drain,down -o '%N %T %E'
c scontrol_show_job scontrol show job
c scontrol_show_job_running scontrol show job "$(J 4)"
c scontrol_show_job_alice scontrol show job "$(J 5)"
c scontrol_show_job_pending scontrol show job "$(J 8)"
c scontrol_show_job_held scontrol show job "$(J 9)"
c scontrol_show_job_begin scontrol show job "$(J 10)"
c scontrol_show_job_dep scontrol show job "$(J 11)"
c scontrol_show_job_adminheld scontrol show job "$(J 12)"
c scontrol_show_job_array scontrol show job "$ARR"
c scontrol_show_job_array_task scontrol show job "${ARR}_1"
c scontrol_show_job_array_pend scontrol show job "$(J 13)"
c scontrol_show_job_oneliner scontrol -o show job "$(J 4)"
c scontrol_show_job_details scontrol -d show job "$(J 4)"
c scontrol_show_jobid scontrol show jobid "$(J 6)"
c scontrol_show_job_invalid scontrol show job 999999
c scontrol_show_job_bad scontrol show job abc
c scontrol_show_node scontrol show node
c scontrol_show_node_draining scontrol show node n3
c scontrol_show_node_down scontrol show node n4
c scontrol_show_node_oneliner scontrol -o show node n1
c scontrol_show_node_invalid scontrol show node nosuch
c scontrol_show_partition scontrol show partition
c scontrol_show_partition_long scontrol show partition long
c scontrol_show_partition_closed scontrol show partition closed
c scontrol_show_partition_oneliner scontrol --oneliner show partition short
c scontrol_show_partition_invalid scontrol show partition nosuch
c scontrol_show_step scontrol show step "$(J 4).batch"
c scontrol_show_steps scontrol show step
c scontrol_show_step_oneliner scontrol -o show step "$(J 6).batch"
c scontrol_show_step_invalid scontrol show step 999999.0
c scontrol_show_config scontrol show config
c scontrol_hostnames scontrol show hostnames 'n[1-3],x5'
c scontrol_hostlist scontrol show hostlist n1,n2,n3,n5
c scontrol_hostlist_sorted scontrol show hostlist n3,n1,n2
c scontrol_ping scontrol ping
c scontrol_show_bogus scontrol show bogus
c scontrol_show_nothing scontrol show
c scontrol_bogus scontrol bogus
c scontrol_bad_opt scontrol --bogus
c scontrol_update_invalid_job scontrol update jobid=999999 timelimit=10
c scontrol_update_invalid_node scontrol update nodename=n9 state=drain reason=x
c scontrol_update_no_reason scontrol update nodename=n1 state=drain
c scontrol_update_bad_key scontrol update jobid="$(J 8)" nosuchkey=1
c scontrol_update_bad_state scontrol update nodename=n1 state=bogus
c scontrol_update_nothing scontrol update
c scontrol_hold_invalid scontrol hold 999999
c scontrol_release_invalid scontrol release 999999
c sprio_default sprio
c sprio_long sprio -l
c sprio_job sprio -j "$(J 8)"
c sprio_norm sprio -n
c sprio_weights sprio -w
c sprio_fmt sprio -o '%.8i %.10Y %u'
c sprio_user sprio -u corral-bob
c sacct_running sacct -X -n -j "$(J 4),$(J 5),$(J 8)" -o JobID,JobName,Partition,State,AllocCPUS,NodeList
c sacct_steps sacct -j "$(J 4)" -o JobID,JobName,State -P

# ---- phase 3: commands that change things, each followed by what it changed
c hold_it scontrol hold "$(J 8)"
c hold_shown squeue -j "$(J 8)" -o '%i %t %r %Q'
c release_it scontrol release "$(J 8)"
# Slurm's scheduler looks at a released or updated job (and a failed dependency, and new jobs:
# backfill every 30 s) a few seconds later; Corral's at once: let the reference's pass come first
# (the last wait stays under MinJobAge, or Corral would have purged the job that ran).
settle 5
c release_shown squeue -j "$(J 8)" -o '%i %t %r'
c uhold_it scontrol uhold "$(J 11)"
c uhold_shown squeue -j "$(J 11)" -o '%i %t %r %Q'
c release_user_held scontrol release "$(J 11)"
c update_time scontrol update jobid="$(J 8)" timelimit=45
c update_time_shown squeue -j "$(J 8)" -o '%i %l'
c update_name scontrol update jobid="$(J 8)" name=renamed
settle 5
c update_name_shown scontrol show job "$(J 8)"
c scancel_invalid scancel 999999
c scancel_invalid_v scancel -v 999999
c scancel_bad_id scancel abc
c scancel_bad_opt scancel --bogus
c scancel_nothing scancel
c scancel_signal_after scancel "$(J 4)" --signal USR1
c scancel_signal_shown squeue -j "$(J 4)" -o '%i %t'
c scancel_array_task scancel "${ARR}_5"
c scancel_array_shown squeue -r -j "$ARR" -o '%i %t %r'
c scancel_user scancel -u corral-bob -t PD
c scancel_user_shown squeue -t all -u corral-bob -o '%i %j %t %r'
c scancel_one scancel "$(J 10)"
c scancel_one_v scancel -v "$(J 12)"
settle 5
c scancel_shown squeue -t all -o '%i %j %t %r'
c sbatch_plain sbatch -H --wrap true
c sbatch_parsable sbatch --parsable -H --wrap true
c sbatch_quiet sbatch -Q -H --wrap true
c sbatch_part_env SBATCH_PARTITION=long sbatch -H --wrap true
c sbatch_part_env_shown squeue -j "$(last_id)" -o '%i %P %l'
c sbatch_part_cmd SBATCH_PARTITION=long sbatch -H -p short --wrap true
c sbatch_part_cmd_shown squeue -j "$(last_id)" -o '%i %P %l'
c sbatch_time_env SBATCH_TIMELIMIT=20 sbatch -H --wrap true
c sbatch_time_env_shown squeue -j "$(last_id)" -o '%i %P %l'
c sbatch_script sbatch -H job.sh
c sbatch_script_shown squeue -j "$(last_id)" -o '%i %j %l %P'
c sbatch_script_env SBATCH_JOB_NAME=envname SBATCH_TIMELIMIT=25 sbatch -H job.sh
c sbatch_script_env_shown squeue -j "$(last_id)" -o '%i %j %l %P'
c sbatch_script_cmd SBATCH_JOB_NAME=envname sbatch -H -J cmdname -t 35 job.sh
c sbatch_script_cmd_shown squeue -j "$(last_id)" -o '%i %j %l %P'
c sbatch_array sbatch -H --array=0-3%2 --wrap true
c sbatch_array_shown squeue -j "$(last_id)" -o '%i %j %T %r'
c sbatch_bad_part sbatch -p nosuch --wrap true
c sbatch_bad_time sbatch -t bogus --wrap true
c sbatch_too_big sbatch -N 9 --wrap true
c sbatch_too_long sbatch -p short -t 60 --wrap true
c sbatch_bad_opt sbatch --bogus
c sbatch_no_script sbatch
c sbatch_missing_file sbatch nosuch.sh
c sbatch_bad_dep sbatch -d afterok:999999 --wrap true
settle 20
c final_squeue squeue -t all
c final_sinfo sinfo

finish
