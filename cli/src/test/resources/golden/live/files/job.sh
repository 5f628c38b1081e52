#!/bin/sh
#SBATCH -J scriptname
#SBATCH -t 15
#SBATCH -p debug
true
