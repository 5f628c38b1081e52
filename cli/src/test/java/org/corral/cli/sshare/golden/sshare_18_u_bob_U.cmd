/usr/bin/sshare -u bob -U
