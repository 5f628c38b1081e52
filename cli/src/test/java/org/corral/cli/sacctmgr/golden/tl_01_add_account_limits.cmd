/usr/bin/sacctmgr -i add account tla GrpTRESMins=cpu=100 GrpWall=30 MaxTRESMins=cpu=50 MaxWall=10
