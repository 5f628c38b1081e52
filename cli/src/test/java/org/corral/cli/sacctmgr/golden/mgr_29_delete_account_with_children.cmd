/usr/bin/sacctmgr -i delete account physics
