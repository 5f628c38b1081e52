/usr/bin/sbatch --gres=gpu:3 --wrap true
