/usr/bin/sacctmgr show account -s
