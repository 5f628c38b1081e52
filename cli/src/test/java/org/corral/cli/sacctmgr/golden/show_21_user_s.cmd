/usr/bin/sacctmgr show user -s
