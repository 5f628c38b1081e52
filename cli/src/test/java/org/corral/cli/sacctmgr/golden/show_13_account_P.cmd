/usr/bin/sacctmgr -P show account
