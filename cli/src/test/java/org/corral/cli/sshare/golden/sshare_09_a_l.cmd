/usr/bin/sshare -a -l
