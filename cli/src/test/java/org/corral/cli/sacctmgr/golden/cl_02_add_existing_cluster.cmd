/usr/bin/sacctmgr -i add cluster reference
