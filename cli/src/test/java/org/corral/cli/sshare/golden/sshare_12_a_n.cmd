/usr/bin/sshare -a -n
