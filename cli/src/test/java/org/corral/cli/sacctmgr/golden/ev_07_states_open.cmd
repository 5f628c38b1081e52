/usr/bin/sacctmgr show event states=drain
