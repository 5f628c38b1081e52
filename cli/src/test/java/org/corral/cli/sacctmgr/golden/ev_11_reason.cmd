/usr/bin/sacctmgr show event reason=FAN
