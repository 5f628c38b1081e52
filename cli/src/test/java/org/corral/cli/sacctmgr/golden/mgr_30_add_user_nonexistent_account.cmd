/usr/bin/sacctmgr -i add user carol account=nosuchacct
