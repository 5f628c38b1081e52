/usr/bin/sacctmgr -i delete account nosuchacct
