/usr/bin/sacctmgr show wckey bogus=1
