/usr/bin/sacctmgr -i add qos tlq GrpTRESMins=cpu=200 GrpWall=1:00:00 MaxTRESMins=cpu=20,node=4
