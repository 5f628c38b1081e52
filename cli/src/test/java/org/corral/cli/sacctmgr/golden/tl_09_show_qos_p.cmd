/usr/bin/sacctmgr show qos tlq -p
