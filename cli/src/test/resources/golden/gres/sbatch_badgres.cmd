/usr/bin/sbatch --gres=foo:1 --wrap true
