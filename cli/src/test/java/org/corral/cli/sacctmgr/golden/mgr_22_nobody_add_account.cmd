runuser -u nobody -- /usr/bin/sacctmgr -i add account evil
