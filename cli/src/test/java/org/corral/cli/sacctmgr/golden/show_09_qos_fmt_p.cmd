/usr/bin/sacctmgr show qos format=name,priority,maxwall -p
