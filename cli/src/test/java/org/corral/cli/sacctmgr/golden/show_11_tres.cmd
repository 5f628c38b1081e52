/usr/bin/sacctmgr show tres
