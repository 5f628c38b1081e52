echo n | /usr/bin/sacctmgr add account rma GrpTRESRunMins=cpu=-1 MaxTRESMins=cpu=9
