/usr/bin/sacctmgr show wckey format=bogus
