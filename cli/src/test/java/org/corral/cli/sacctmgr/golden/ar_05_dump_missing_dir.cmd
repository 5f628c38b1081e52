/usr/bin/sacctmgr -i archive dump Directory=/tmp/harch_nonexist
