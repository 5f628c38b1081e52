/usr/bin/sacctmgr show assoc where account=tla format=account,grptresmins,grpwall,maxtresmins,maxwall -P
