/usr/bin/sacctmgr -i add wckey name=wk9 user=wkuser
