/usr/bin/sacctmgr -i add account physics Description="physics dept" Organization=sci
