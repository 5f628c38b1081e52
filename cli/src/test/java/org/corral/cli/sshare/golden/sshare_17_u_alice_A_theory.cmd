/usr/bin/sshare -u alice -A theory
