/usr/bin/sshare -v
