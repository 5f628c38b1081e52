/usr/bin/sacctmgr show event format=nodename%-6,reason%12,state event=node
