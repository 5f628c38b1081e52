/usr/bin/sacctmgr show assoc where account=physics -s format=account,user
