/usr/bin/sshare -U -a
