/usr/bin/sacctmgr show event event=cluster
