/usr/bin/sacctmgr show event event=node format=nodename,duration,state
