/usr/bin/sacctmgr show assoc tree format=account,user,share
