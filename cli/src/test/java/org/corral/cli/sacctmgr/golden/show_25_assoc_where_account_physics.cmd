/usr/bin/sacctmgr show assoc where account=physics
