/usr/bin/sacctmgr show qos high -P
