/usr/bin/sacctmgr -i archive load File=/etc/hostname
