/usr/bin/sshare -A physics
