/usr/bin/sshare -l
