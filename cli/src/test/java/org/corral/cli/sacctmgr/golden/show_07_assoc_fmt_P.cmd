/usr/bin/sacctmgr show assoc format=account,user,fairshare -P
