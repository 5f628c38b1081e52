/usr/bin/sacctmgr show assoc where user=alice format=cluster,account,user,partition,share,qos,defaultqos -p
