/usr/bin/sacctmgr -i delete user bob account=chem
