/usr/bin/sacctmgr -i archive load File=/tmp/harch_nonexist
