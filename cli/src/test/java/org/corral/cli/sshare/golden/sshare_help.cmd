/usr/bin/sshare --help
