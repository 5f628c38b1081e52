/usr/bin/sacctmgr -i archive dump bogus=1
