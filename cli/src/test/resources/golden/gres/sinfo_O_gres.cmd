/usr/bin/sinfo -N -O "NodeList,Gres:30,GresUsed:40"
