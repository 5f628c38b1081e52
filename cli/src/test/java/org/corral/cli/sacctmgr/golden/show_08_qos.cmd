/usr/bin/sacctmgr show qos
