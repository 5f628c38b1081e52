/usr/bin/sacctmgr show event states=DOWN all_time
