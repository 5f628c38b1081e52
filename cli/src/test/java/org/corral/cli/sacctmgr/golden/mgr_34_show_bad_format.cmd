/usr/bin/sacctmgr show assoc format=account,bogus
