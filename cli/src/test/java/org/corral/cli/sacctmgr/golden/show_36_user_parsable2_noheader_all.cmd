/usr/bin/sacctmgr -nP show user
