/usr/bin/sshare -P
