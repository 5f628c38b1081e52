/usr/bin/sacctmgr show event n3
