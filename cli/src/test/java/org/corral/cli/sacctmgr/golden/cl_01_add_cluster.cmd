/usr/bin/sacctmgr -i add cluster newc
