/usr/bin/sacctmgr show user where name=alice
