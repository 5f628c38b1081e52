#!/bin/sh
#SBATCH -t xx
echo
