#!/bin/sh
#SBATCH -J a\ b
echo
