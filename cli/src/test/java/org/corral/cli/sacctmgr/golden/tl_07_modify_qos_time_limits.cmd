/usr/bin/sacctmgr -i modify qos tlq set GrpTRESMins=cpu=-1 MaxTRESMinsPerJob=cpu=30 GrpWall=45
