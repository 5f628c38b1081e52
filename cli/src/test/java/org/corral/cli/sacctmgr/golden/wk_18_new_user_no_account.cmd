/usr/bin/sacctmgr -i add user wknew wckeys=wk1
