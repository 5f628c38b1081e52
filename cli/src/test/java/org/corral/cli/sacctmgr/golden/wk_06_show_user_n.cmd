/usr/bin/sacctmgr list wckeys where user=wkuser format=wckey,user -n
