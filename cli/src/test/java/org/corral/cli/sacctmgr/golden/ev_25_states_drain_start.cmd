/usr/bin/sacctmgr show event states=drain start=2026-01-01
