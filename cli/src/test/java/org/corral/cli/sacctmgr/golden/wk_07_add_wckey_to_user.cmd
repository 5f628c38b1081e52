/usr/bin/sacctmgr -i add user wkuser wckeys=wk3
