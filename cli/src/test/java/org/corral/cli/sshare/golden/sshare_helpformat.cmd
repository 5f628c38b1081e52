/usr/bin/sshare --helpformat
