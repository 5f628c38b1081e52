/usr/bin/sacctmgr show account withassoc
