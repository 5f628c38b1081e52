#!/bin/sh
# Records the ar_* cases (sacctmgr archive dump/load) from the reference Slurm 22.05 with
# slurmdbd (bench/reference/accounting.sh), as root. Nothing is purged: the dumps that pass the
# checks name no cluster with records old enough (the reference's slurmdbd.conf sets no
# ArchiveDir or Purge*, and is left as it is). When the reference's slurm.conf lacks
# AccountingStorageType, point SLURM_CONF at a copy that has it (the commands only read it).
# ar_1x_* run as an unprivileged user (USER_NAME, default cloudsdk). ar_14 answers the prompt n.
. "$(dirname "$0")/record-lib.sh"
U=${USER_NAME:-cloudsdk}
run ar_01_dump_nothing_to_purge $S -i archive dump Clusters=harchnone
run ar_02_dump_unknown_condition $S -i archive dump bogus=1
run ar_03_dump_bad_purge_string $S -i archive dump PurgeJobAfter=bogus
run ar_04_dump_bad_purge_unit $S -i archive dump PurgeJobAfter=12x
run ar_05_dump_missing_dir $S -i archive dump Directory=/tmp/harch_nonexist
run ar_06_dump_dir_not_a_dir $S -i archive dump Directory=/etc/hostname
run ar_07_dump_unknown_cluster $S -i archive dump Clusters=harchnone PurgeJobAfter=1000months
run ar_08_load_missing_file $S -i archive load File=/tmp/harch_nonexist
run ar_09_load_not_an_archive $S -i archive load File=/etc/hostname
run ar_10_load_no_file $S -i archive load
run ar_11_load_unknown_option $S -i archive load bogus=1
run ar_12_no_entity $S archive
run ar_13_bad_entity $S archive foo
echo "$S archive dump Clusters=harchnone" > ar_14_dump_prompt_no.cmd
echo n | $S archive dump Clusters=harchnone > ar_14_dump_prompt_no.out 2> ar_14_dump_prompt_no.err
echo $? > ar_14_dump_prompt_no.rc
asuser() { # NAME COMMAND...
  name=$1; shift
  echo "$*" > "$name.cmd"
  su -s /bin/sh "$U" -c "SLURM_CONF=${SLURM_CONF:-/etc/slurm/slurm.conf} $*" > "$name.out" 2> "$name.err" < /dev/null
  echo $? > "$name.rc"
}
asuser ar_15_dump_not_admin $S -i archive dump Clusters=harchnone
asuser ar_16_load_not_admin $S -i archive load File=/etc/hostname
