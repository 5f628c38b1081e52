echo n | /usr/bin/sacctmgr add account bio
