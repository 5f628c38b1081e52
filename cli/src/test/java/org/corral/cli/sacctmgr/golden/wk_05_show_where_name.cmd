/usr/bin/sacctmgr show wckey where name=wk1
