/usr/bin/sacctmgr list events -P
