/usr/bin/sshare -o Account,Bogus
