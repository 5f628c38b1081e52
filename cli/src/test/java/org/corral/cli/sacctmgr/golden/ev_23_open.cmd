/usr/bin/sacctmgr show event condflags=open
