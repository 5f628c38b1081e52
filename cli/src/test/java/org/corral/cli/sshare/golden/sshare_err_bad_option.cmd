/usr/bin/sshare --bogus
