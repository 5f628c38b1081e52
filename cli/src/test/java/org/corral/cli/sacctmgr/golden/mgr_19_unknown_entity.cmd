/usr/bin/sacctmgr show foo
