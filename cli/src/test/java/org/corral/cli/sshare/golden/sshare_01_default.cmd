/usr/bin/sshare
