/usr/bin/sacctmgr list config -n -P
