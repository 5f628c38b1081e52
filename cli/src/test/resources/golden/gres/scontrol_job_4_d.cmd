/usr/bin/scontrol -d show job 4
