echo n | /usr/bin/sacctmgr add account rma GrpTRESRunMins=cpu=100,node=4 GrpTRESMins=cpu=5
