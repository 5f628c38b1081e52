/usr/bin/sshare -a -o Account%-30,User%5,FairShare%12
