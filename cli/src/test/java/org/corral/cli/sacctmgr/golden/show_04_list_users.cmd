/usr/bin/sacctmgr list users
