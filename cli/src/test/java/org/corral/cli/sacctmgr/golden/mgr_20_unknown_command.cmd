/usr/bin/sacctmgr frobnicate account
