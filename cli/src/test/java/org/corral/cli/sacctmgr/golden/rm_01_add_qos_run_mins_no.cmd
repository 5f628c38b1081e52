echo n | /usr/bin/sacctmgr add qos rmq GrpTRESRunMins=cpu=100 GrpTRESMins=cpu=50 GrpWall=10
