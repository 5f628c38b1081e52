/usr/bin/sacctmgr show user
