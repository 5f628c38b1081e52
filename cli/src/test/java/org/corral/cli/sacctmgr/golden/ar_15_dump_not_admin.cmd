/usr/bin/sacctmgr -i archive dump Clusters=harchnone
