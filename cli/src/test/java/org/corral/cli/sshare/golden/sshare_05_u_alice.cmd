/usr/bin/sshare -u alice
