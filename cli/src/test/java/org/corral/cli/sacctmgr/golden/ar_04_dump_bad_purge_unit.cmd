/usr/bin/sacctmgr -i archive dump PurgeJobAfter=12x
