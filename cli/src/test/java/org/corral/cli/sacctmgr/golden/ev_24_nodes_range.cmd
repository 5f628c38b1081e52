/usr/bin/sacctmgr show event nodes=n[3-4] event=node
