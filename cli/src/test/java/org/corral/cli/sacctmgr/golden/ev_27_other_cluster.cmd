/usr/bin/sacctmgr show event clusters=other
