/usr/bin/sshare -U
