/usr/bin/sbatch -H -w g2 --gpus-per-node=tesla:1 --cpus-per-gpu=2 --mem-per-gpu=500 --wrap true >/dev/null; /usr/bin/scontrol show job $(/usr/bin/squeue -h -t PD -o %i | tail -1)
