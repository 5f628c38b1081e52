/usr/bin/sacctmgr show qos normal format=name,priority,usagefactor,gracetime,preemptmode,flags -P
