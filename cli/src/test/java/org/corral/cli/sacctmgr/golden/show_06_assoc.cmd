/usr/bin/sacctmgr show assoc
