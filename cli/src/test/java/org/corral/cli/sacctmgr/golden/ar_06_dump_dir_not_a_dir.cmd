/usr/bin/sacctmgr -i archive dump Directory=/etc/hostname
