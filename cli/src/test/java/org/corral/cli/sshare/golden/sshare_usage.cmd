/usr/bin/sshare --usage
