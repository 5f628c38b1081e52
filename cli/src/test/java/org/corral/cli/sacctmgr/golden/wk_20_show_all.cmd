/usr/bin/sacctmgr show wckey format=wckey,user
