/usr/bin/sacctmgr -i add account xyz parent=nosuchparent
