#!/bin/bash
# Records, on a real GPU node, the nvidia-smi output Corral's autodetection reads (NvidiaSmi,
# MigDevices), as fixtures for GresDiscoveryTest. Usage: record.sh OUTDIR [PREFIX]
set -u
out=${1:?usage: record.sh OUTDIR [PREFIX]}
p=${2:-real}
mkdir -p "$out"
nvidia-smi --query-gpu=index,name,uuid,pci.bus_id,memory.total --format=csv,noheader > "$out/$p-query.csv"
nvidia-smi topo -m > "$out/$p-topo.txt"
nvidia-smi -L > "$out/$p-L.txt"
nvidia-smi > "$out/$p-smi.txt"
cat /proc/driver/nvidia-caps/mig-minors > "$out/$p-mig-minors.txt" 2>/dev/null
nvidia-smi -q > "$out/$p-q.txt"
nvidia-smi --version > "$out/$p-version.txt" 2>&1
