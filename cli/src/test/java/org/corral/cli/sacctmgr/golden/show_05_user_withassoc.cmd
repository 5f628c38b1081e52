/usr/bin/sacctmgr show user withassoc
