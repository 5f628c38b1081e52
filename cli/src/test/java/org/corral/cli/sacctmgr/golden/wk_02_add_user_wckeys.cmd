/usr/bin/sacctmgr -i add user wkuser account=root wckeys=wk1,wk2 defaultwckey=wk1
