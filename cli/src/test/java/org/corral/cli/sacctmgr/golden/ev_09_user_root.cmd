/usr/bin/sacctmgr show event user=root
