/usr/bin/sshare -a
