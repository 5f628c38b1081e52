/usr/bin/sacctmgr show user alice
