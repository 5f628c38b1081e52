/usr/bin/sacctmgr show event
