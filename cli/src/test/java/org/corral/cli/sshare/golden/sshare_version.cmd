/usr/bin/sshare -V
