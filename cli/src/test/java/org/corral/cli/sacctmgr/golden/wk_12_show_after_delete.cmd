/usr/bin/sacctmgr show wckey -p
