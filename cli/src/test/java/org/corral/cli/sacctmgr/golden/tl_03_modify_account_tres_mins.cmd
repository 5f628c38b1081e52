/usr/bin/sacctmgr -i modify account tla set GrpTRESMins=cpu=120,mem=1000 MaxTRESMinsPerJob=cpu=60
