/usr/bin/sacctmgr -i add user alice account=physics
