/usr/bin/sacctmgr show event states=down*
