/usr/bin/sacctmgr -i modify account tla set GrpTRESMins=bogus=5
