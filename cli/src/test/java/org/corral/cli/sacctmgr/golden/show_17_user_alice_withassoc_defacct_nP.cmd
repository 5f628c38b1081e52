/usr/bin/sacctmgr show user alice withassoc format=user,defaultaccount -nP
