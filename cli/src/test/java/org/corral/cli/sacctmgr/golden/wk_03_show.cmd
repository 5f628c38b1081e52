/usr/bin/sacctmgr show wckey
