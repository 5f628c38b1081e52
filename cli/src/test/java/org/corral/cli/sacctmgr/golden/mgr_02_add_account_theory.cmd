/usr/bin/sacctmgr -i add account theory parent=physics
