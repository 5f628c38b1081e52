/usr/bin/sacctmgr -i delete wckey name=wk1
