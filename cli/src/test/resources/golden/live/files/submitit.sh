#!/bin/bash

# Parameters
#SBATCH --cpus-per-task=1
#SBATCH --error=/tmp/submitit/%j_0_log.err
#SBATCH --job-name=submitit
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --open-mode=append
#SBATCH --output=/tmp/submitit/%j_0_log.out
#SBATCH --signal=USR2@90
#SBATCH --time=5
#SBATCH --wckey=submitit

# command
export SUBMITIT_EXECUTOR=slurm
srun --unbuffered --output /tmp/submitit/%j_%t_log.out --error /tmp/submitit/%j_%t_log.err true
