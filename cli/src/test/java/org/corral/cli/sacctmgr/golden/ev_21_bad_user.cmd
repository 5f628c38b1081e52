/usr/bin/sacctmgr show event user=nosuchuser
