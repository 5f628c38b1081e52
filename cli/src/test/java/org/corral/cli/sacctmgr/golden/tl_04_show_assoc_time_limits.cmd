/usr/bin/sacctmgr show assoc where account=tla format=account,user,grptresmins,grpwall,maxtresmins,maxwall
