/usr/bin/sacctmgr -n show account
