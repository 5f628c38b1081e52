/usr/bin/sacctmgr --help
