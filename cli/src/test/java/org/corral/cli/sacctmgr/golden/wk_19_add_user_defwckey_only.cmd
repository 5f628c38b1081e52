/usr/bin/sacctmgr -i add user wknew2 account=root defaultwckey=wk5
