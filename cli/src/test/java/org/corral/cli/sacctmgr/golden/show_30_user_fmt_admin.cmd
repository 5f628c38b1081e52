/usr/bin/sacctmgr show user format=user,admin%20,defaultaccount
