/usr/bin/sacctmgr show event -n -p
