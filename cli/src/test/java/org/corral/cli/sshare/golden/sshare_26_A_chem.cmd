/usr/bin/sshare -A chem
