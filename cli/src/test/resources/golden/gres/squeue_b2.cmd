/usr/bin/squeue -o "%i %t %r %b"
