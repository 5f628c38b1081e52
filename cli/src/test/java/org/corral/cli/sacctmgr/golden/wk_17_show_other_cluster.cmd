/usr/bin/sacctmgr show wckey where cluster=nope
