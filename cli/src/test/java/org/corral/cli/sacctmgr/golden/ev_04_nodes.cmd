/usr/bin/sacctmgr show event nodes=n4
