/usr/bin/sacctmgr -i archive load
