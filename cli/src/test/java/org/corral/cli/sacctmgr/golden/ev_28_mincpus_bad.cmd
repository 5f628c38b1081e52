/usr/bin/sacctmgr show event mincpus=x event=node
