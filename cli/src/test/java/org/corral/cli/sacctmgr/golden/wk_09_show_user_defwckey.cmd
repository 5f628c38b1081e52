/usr/bin/sacctmgr show user wkuser format=user,defaultwckey,defaultaccount
