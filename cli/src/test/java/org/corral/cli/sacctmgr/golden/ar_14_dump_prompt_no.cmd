/usr/bin/sacctmgr archive dump Clusters=harchnone
