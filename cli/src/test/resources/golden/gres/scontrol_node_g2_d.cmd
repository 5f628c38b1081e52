/usr/bin/scontrol -d show node g2
