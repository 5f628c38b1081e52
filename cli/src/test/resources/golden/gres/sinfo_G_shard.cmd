/usr/bin/sinfo -o "%N %G"   # with shard:4 on g1 (gres.conf Name=shard Count=4 File=/dev/corral-ref-gpu[0-1])
