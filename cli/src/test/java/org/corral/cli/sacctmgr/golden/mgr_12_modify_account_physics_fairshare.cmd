/usr/bin/sacctmgr -i modify account physics set fairshare=50
