/usr/bin/sacctmgr -i delete user wkuser wckeys=wk3
