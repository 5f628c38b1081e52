/usr/bin/sacctmgr show wckey format=wckey%20,user%-8
