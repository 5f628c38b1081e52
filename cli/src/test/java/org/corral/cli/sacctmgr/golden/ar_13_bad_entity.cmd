/usr/bin/sacctmgr archive foo
