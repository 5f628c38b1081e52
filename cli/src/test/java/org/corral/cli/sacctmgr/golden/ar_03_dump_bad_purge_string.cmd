/usr/bin/sacctmgr -i archive dump PurgeJobAfter=bogus
