/usr/bin/sacctmgr show event start=bogus event=node
