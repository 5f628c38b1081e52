/usr/bin/sshare -A theory -a
