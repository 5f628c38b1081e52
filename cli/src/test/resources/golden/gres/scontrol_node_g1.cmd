/usr/bin/scontrol show node g1
