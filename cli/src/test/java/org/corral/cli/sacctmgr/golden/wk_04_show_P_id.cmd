/usr/bin/sacctmgr show wckey format=wckey,cluster,user,id -P
