/usr/bin/sacctmgr show event format=bogus
