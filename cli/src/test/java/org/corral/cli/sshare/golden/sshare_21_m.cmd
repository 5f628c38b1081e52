/usr/bin/sshare -a -m
