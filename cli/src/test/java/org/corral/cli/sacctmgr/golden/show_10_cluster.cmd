/usr/bin/sacctmgr show cluster
