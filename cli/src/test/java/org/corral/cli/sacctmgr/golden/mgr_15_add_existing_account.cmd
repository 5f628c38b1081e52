/usr/bin/sacctmgr -i add account physics
