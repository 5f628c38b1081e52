/usr/bin/sacctmgr -i modify account where name=chem set Description="chem dept"
