#!/bin/bash
#SBATCH -J ood-desktop
#SBATCH -t 0:15:00
#SBATCH -N 1
sleep 600
