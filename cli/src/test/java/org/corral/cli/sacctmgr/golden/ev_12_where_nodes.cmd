/usr/bin/sacctmgr show event where nodes=n3
