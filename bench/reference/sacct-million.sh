#!/bin/bash
# sacct over a million stored jobs, Slurm and Corral side by side (issue 6).
#
# Slurm: loads JOBS synthetic finished jobs (and their batch steps) straight into the reference
# slurmdbd's MariaDB tables (accounting.sh's database, cluster "reference"; the rows use the
# root/root association that exists there), times /usr/bin/sacct against them, and deletes them
# again (the trap runs on any exit), checking the counts are back to what they were.
# Corral: org.corral.bench.AccountingBench loads the same shape of jobs (same ids, times, states,
# CPUs, nodes, user and account) through slurmdbd's storage as the controller ships them, and
# times bin/sacct with the same options.
#
# Usage (root, reference Slurm with accounting running, Corral built):
#   bench/reference/sacct-million.sh [JOBS] [sqlite|mysql|none ...]
# JOBS defaults to 1000000, the Corral storages to "sqlite mysql".
set -euo pipefail
cd "$(dirname "$0")/../.."
JOBS=${1:-1000000}
shift || true
KINDS=${*:-sqlite mysql}
DB=slurm_acct_db
MARK=corral-bench-synthetic
NOW=$(date +%s)
LAST_END=$((NOW - 2 * 86400))           # every job ended before yesterday: today's sacct is unchanged
SPAN=$((365 * 86400))
FIRST=$((LAST_END - SPAN - 8000))       # first submission
START_DAY=$(date -d "@$((FIRST - 86400))" +%Y-%m-%d)
export BENCH_FIRST_SUBMIT=$FIRST BENCH_SPAN_S=$SPAN BENCH_SACCT_START=$START_DAY

sql() { mysql -uroot -h127.0.0.1 -N -B "$DB" -e "$1"; }
jobs_before=$(sql "SELECT COUNT(*) FROM reference_job_table")
steps_before=$(sql "SELECT COUNT(*) FROM reference_step_table")
inc_before=$(sql "SELECT AUTO_INCREMENT FROM information_schema.TABLES WHERE TABLE_SCHEMA='$DB' AND TABLE_NAME='reference_job_table'")

cleanup() {
  local t0=$SECONDS
  sql "DELETE s FROM reference_step_table s JOIN reference_job_table j ON s.job_db_inx = j.job_db_inx
       WHERE j.admin_comment = '$MARK'"
  sql "DELETE FROM reference_job_table WHERE admin_comment = '$MARK'"
  sql "ALTER TABLE reference_job_table AUTO_INCREMENT = $inc_before"  # InnoDB keeps max+1 if higher
  echo "removed the synthetic rows in $((SECONDS - t0)) s; jobs $(sql "SELECT COUNT(*) FROM reference_job_table") (were $jobs_before), steps $(sql "SELECT COUNT(*) FROM reference_step_table") (were $steps_before)"
}
trap cleanup EXIT

# Job i (1..JOBS): id 1000000+i, submitted FIRST + i*SPAN/JOBS, started 0-599 s later, ran
# 60-7259 s; 1, 2, 4 .. 32 CPUs on one node (two nodes every fourth job) of n0..n99; 1 in 20
# FAILED (exit 1), 1 in 20 CANCELLED by root, 1 in 20 TIMEOUT, the rest COMPLETED.
t0=$SECONDS
sql "INSERT INTO reference_job_table (mod_time, account, admin_comment, cpus_req, exit_code, flags, job_name,
       id_assoc, id_job, id_qos, id_resv, id_wckey, id_user, id_group, het_job_id, het_job_offset, kill_requid,
       state_reason_prev, mem_req, nodelist, nodes_alloc, node_inx, \`partition\`, priority, state, timelimit,
       time_submit, time_eligible, time_start, time_end, work_dir, submit_line, tres_alloc, tres_req)
     SELECT sub + 8000, 'root', '$MARK', cpus, IF(seq % 20 = 0, 256, 0), 20, CONCAT('job', seq),
       2, 1000000 + seq, 1, 0, 0, 0, 0, 0, 4294967294, IF(seq % 20 = 1, 0, NULL),
       0, 4000, IF(nodes = 1, CONCAT('n', seq % 100), CONCAT('n[', seq % 99, '-', seq % 99 + 1, ']')), nodes,
       IF(nodes = 1, seq % 100, CONCAT(seq % 99, '-', seq % 99 + 1)), 'debug', 1,
       CASE seq % 20 WHEN 0 THEN 5 WHEN 1 THEN 4 WHEN 2 THEN 6 ELSE 3 END, 180,
       sub, sub, sub + seq % 600, sub + seq % 600 + 60 + seq % 7200, '/home/user/run', NULL,
       CONCAT('1=', cpus, ',2=', 4000 * nodes, ',3=18446744073709551614,4=', nodes, ',5=', cpus),
       CONCAT('1=', cpus, ',2=', 4000 * nodes, ',4=', nodes, ',5=', cpus)
     FROM (SELECT seq, $FIRST + seq * $SPAN DIV $JOBS AS sub, 1 << (seq % 6) AS cpus, IF(seq % 4 = 0, 2, 1) AS nodes
           FROM seq_1_to_$JOBS) g"
t_jobs=$((SECONDS - t0))
sql "INSERT INTO reference_step_table (job_db_inx, id_step, step_het_comp, nodelist, nodes_alloc, node_inx, state,
       step_name, task_cnt, task_dist, time_start, time_end, exit_code, kill_requid, tres_alloc,
       tres_usage_in_ave, tres_usage_in_max, tres_usage_in_max_taskid, tres_usage_in_max_nodeid,
       tres_usage_in_min, tres_usage_in_min_taskid, tres_usage_in_min_nodeid, tres_usage_in_tot,
       tres_usage_out_ave, tres_usage_out_max, tres_usage_out_max_taskid, tres_usage_out_max_nodeid,
       tres_usage_out_min, tres_usage_out_min_taskid, tres_usage_out_min_nodeid, tres_usage_out_tot)
     SELECT job_db_inx, -5, 4294967294, SUBSTRING_INDEX(REPLACE(nodelist, 'n[', 'n'), '-', 1), 1,
       SUBSTRING_INDEX(node_inx, '-', 1), state, 'batch', 1, 0, time_start, time_end, exit_code, kill_requid,
       CONCAT('1=', cpus_req, ',2=4000,4=1'), '3=0', '', '', '', '', '', '', '3=0', '3=0', '', '', '', '', '', '', '3=0'
     FROM reference_job_table WHERE admin_comment = '$MARK'"
echo "slurm: loaded $JOBS jobs in ${t_jobs} s and their batch steps in $((SECONDS - t0 - t_jobs)) s (submitted $(date -d @$FIRST +%F) .. $(date -d @$LAST_END +%F))"

# time to the first line and to the last of a command's output (read and dropped)
timed() {
  python3 - "$@" <<'PY'
import subprocess, sys, time
t0 = time.monotonic()
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE)
first, n = None, 0
for _ in p.stdout:
    if first is None:
        first = time.monotonic() - t0
    n += 1
rc = p.wait()
total = time.monotonic() - t0
print(f"{' '.join(sys.argv[1:])}: rc {rc}, {n} lines, first line {first or 0:.2f} s, all {total:.2f} s", flush=True)
PY
}
for round in 1 2; do
  timed /usr/bin/sacct -a -S "$START_DAY" -E now -X
  timed /usr/bin/sacct -a -S "$START_DAY" -E now -X -P
done
cleanup
trap - EXIT

if [ -n "$KINDS" ] && [ "$KINDS" != none ]; then
  # build/lib (./mvnw -B -DskipTests package) and the bench jar; Java from the build's choice
  [ -r build/java.env ] && . build/java.env
  java=${CORRAL_JAVA_HOME:+$CORRAL_JAVA_HOME/bin/}java
  for kind in $KINDS; do
    "$java" --enable-native-access=ALL-UNNAMED -cp "bench/target/corral-bench-0.1.0-SNAPSHOT.jar:build/lib/*" \
      org.corral.bench.AccountingBench "$kind" "$JOBS"
  done
fi
