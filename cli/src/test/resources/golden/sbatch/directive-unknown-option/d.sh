#!/bin/sh
#SBATCH --bogus
echo
