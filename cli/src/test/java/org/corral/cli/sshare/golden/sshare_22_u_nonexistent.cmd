/usr/bin/sshare -u nosuchuser
