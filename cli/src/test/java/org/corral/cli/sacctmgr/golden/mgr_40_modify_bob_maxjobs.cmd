/usr/bin/sacctmgr -i modify user bob set MaxJobs=10
