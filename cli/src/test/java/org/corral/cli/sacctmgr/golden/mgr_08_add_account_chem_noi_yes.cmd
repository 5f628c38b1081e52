echo y | /usr/bin/sacctmgr add account chem Description=chemistry Organization=sci fairshare=20
