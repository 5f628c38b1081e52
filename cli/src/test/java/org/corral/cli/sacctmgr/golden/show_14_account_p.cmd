/usr/bin/sacctmgr -p show account
