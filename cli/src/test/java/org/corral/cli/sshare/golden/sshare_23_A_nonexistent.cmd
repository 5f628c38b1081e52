/usr/bin/sshare -A nosuchacct
