/usr/bin/sacctmgr show account
