runuser -u bob -- /usr/bin/sshare -a
