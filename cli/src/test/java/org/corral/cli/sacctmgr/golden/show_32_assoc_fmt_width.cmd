/usr/bin/sacctmgr show assoc format=account%-15,user%5,fairshare%3
