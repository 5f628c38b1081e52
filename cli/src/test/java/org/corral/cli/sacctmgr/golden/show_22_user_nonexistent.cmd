/usr/bin/sacctmgr show user nosuchuser
