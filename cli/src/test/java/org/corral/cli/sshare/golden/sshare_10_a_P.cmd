/usr/bin/sshare -a -P
