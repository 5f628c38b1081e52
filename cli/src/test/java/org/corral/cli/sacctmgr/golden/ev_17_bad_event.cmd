/usr/bin/sacctmgr show event event=bogus
