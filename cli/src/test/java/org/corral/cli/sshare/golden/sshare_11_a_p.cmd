/usr/bin/sshare -a -p
