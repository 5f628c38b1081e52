/usr/bin/sacctmgr -i archive dump Clusters=harchnone PurgeJobAfter=1000months
