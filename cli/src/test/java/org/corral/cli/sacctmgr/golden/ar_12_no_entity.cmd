/usr/bin/sacctmgr archive
