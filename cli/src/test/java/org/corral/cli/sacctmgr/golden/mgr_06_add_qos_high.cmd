/usr/bin/sacctmgr -i add qos high priority=100 MaxWall=1:00:00
