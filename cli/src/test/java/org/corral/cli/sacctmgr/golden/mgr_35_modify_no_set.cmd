/usr/bin/sacctmgr -i modify user alice
