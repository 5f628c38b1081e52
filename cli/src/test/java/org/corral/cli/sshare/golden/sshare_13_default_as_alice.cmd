runuser -u alice -- /usr/bin/sshare
