/usr/bin/sacctmgr -i archive load bogus=1
