/usr/bin/sacctmgr show event user=slurm
