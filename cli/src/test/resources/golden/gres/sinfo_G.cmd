/usr/bin/sinfo -o "%N %G"
