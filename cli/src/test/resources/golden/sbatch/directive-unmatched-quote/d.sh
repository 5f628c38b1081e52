#!/bin/sh
# c
#SBATCH --comment="unterminated
echo
