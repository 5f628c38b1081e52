/usr/bin/sshare -u alice,bob
