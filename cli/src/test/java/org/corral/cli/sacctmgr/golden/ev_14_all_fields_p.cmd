/usr/bin/sacctmgr show event format=cluster,clusternodes,end,event,eventraw,nodename,reason,start,state,stateraw,tres,user -p
