/usr/bin/sacctmgr show qos tlq format=name,grptresmins,grpwall,maxtresmins,maxwall
