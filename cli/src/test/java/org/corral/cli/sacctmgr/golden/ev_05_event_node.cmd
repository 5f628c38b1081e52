/usr/bin/sacctmgr show event event=node
