#!/bin/bash
# Adds accounting to the reference Slurm 22.05 that ../shared/peer/slurm-reference.sh started:
# slurmdbd (Debian's package) over the MariaDB on 127.0.0.1 (database slurm_acct_db), the
# controller restarted with AccountingStorageType=accounting_storage/slurmdbd, and the cluster
# registered. Run as root after slurm-reference.sh start; stop with: kill $(cat /run/slurmdbd.pid).
set -euo pipefail
if ! command -v slurmdbd >/dev/null; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurmdbd >/dev/null
fi
cat > /etc/slurm/slurmdbd.conf <<CONF
AuthType=auth/munge
DbdHost=localhost
DbdPort=6819
SlurmUser=slurm
PidFile=/run/slurmdbd.pid
LogFile=/var/log/slurm/slurmdbd.log
DebugLevel=error
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=3306
StorageUser=root
StorageLoc=slurm_acct_db
CONF
chown slurm:slurm /etc/slurm/slurmdbd.conf
chmod 600 /etc/slurm/slurmdbd.conf
[ -s /run/slurmdbd.pid ] && kill "$(cat /run/slurmdbd.pid)" 2>/dev/null && sleep 1 || true
/usr/sbin/slurmdbd
for _ in $(seq 1 30); do /usr/bin/sacctmgr -n list cluster >/dev/null 2>&1 && break; sleep 1; done
grep -q '^AccountingStorageType=' /etc/slurm/slurm.conf || cat >> /etc/slurm/slurm.conf <<CONF
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=localhost
AccountingStorageEnforce=associations,limits,qos
JobAcctGatherType=jobacct_gather/linux
CONF
/usr/bin/sacctmgr -i add cluster reference >/dev/null 2>&1 || true
kill "$(cat /run/slurmctld.pid)"; sleep 2
/usr/sbin/slurmctld
for _ in $(seq 1 30); do /usr/bin/scontrol ping >/dev/null 2>&1 && break; sleep 1; done
# root's association, so root can still submit under AccountingStorageEnforce=associations

/usr/bin/sacctmgr -i add user root account=root >/dev/null 2>&1 || true
/usr/bin/sacctmgr -n list assoc format=cluster,account,user
