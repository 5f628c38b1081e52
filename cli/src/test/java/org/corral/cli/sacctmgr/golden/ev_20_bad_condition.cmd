/usr/bin/sacctmgr show event foo=bar
