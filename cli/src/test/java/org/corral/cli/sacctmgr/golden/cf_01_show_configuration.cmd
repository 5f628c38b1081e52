/usr/bin/sacctmgr show configuration
