#!/bin/bash
# End-to-end check of Corral on a real NVIDIA GPU node, as root, with the bundle from
# make-bundle.sh (no JDK or network needed there). Usage: gpu-e2e.sh REPORT_DIR
# A one-node cluster with AutoDetect=nvidia and ConstrainDevices/Cores/RAMSpace on whatever
# cgroup tree the host has; jobs run as an unprivileged user. Each check prints PASS or FAIL;
# the exit status is the number of failures. Everything seen goes to REPORT_DIR.
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
report=${1:?usage: gpu-e2e.sh REPORT_DIR}
mkdir -p "$report"
fails=0
check() { # check NAME COMMAND...: PASS when the command succeeds
  local name=$1; shift
  if "$@" >>"$report/checks.log" 2>&1; then echo "PASS $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}

. "$src/bench/gpu/install.sh"

user=corralgpu
id "$user" >/dev/null 2>&1 || useradd -m "$user"
uid=$(id -u "$user")
work=$home/work && mkdir -p "$work" && chown "$user" "$work"

conf=$home/conf && mkdir -p "$conf"
cpus=$(nproc)
cat >"$conf/slurm.conf" <<EOF
ClusterName=gpu
GresTypes=gpu
NodeName=g1 CPUs=$cpus RealMemory=16000 Gres=gpu:1
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
printf 'AutoDetect=nvidia\n' >"$conf/gres.conf"
printf 'CgroupPlugin=autodetect\nConstrainDevices=yes\nConstrainCores=yes\nConstrainRAMSpace=yes\n' >"$conf/cgroup.conf"

SLURM_CONF=$conf/slurm.conf "$home/bin/slurmd" -N g1 -G 2>"$report/slurmd-G.txt"
check "slurmd -G finds the GPU by nvidia-smi" grep -q 'Name=gpu Type=nvidia_.* File=/dev/nvidia0' "$report/slurmd-G.txt"

SLURM_CONF=$conf/slurm.conf "$home/bin/slurmd" -N g1 -C >"$report/slurmd-C.txt" 2>&1
check "slurmd -C: the node line with the detected GPU" grep -Eq "^NodeName=g1 CPUs=$cpus .* Gres=gpu:nvidia_[^ ]*:1$" "$report/slurmd-C.txt"

"$home/corral" up --dir "$home/cluster" --port-base 16817 --config "$conf/slurm.conf" >"$report/up.txt" 2>&1 \
  || { echo "FAIL corral up"; cat "$report/up.txt"; "$home/corral" down --dir "$home/cluster"; exit 1; }
. "$home/cluster/env"
as_user() { (cd "$work" && runuser -u "$user" -- env PATH="$PATH" SLURM_CONF="$SLURM_CONF" HOME="$work" "$@"); }
wait_done() { # wait_done JOBID: until it leaves the queue
  for _ in $(seq 1 240); do [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ] && return 0; sleep 0.5; done; return 1
}
for _ in $(seq 1 60); do sinfo -h -o %t | grep -q idle && break; sleep 0.5; done

scontrol show node g1 >"$report/show-node.txt"
sinfo -N -o '%N %G %t' >"$report/sinfo.txt"
scontrol show config | grep -i cgroup >"$report/config-cgroup.txt"
check "node g1 idle with its autodetected GPU" grep -q 'gpu' "$report/sinfo.txt"
check "a cgroup backend is in use" grep -Eq 'CgroupPluginInUse += g1=cgroup/v' "$report/config-cgroup.txt"

# A job given the GPU computes on it; CUDA sees one device.
gpu=$(as_user sbatch --parsable --gres=gpu:1 -c 2 -o gpu-%j.out --wrap \
  'echo CUDA=$CUDA_VISIBLE_DEVICES JOB_GPUS=$SLURM_JOB_GPUS; nvidia-smi -L;
   python3 -c "import torch; x=torch.ones(1024,1024,device=\"cuda\"); print(\"devices\", torch.cuda.device_count(), \"sum\", float(x.sum()))";
   grep Cpus_allowed_list /proc/self/status; sleep 5')
for _ in $(seq 1 40); do
  scontrol show job -d "$gpu" >"$report/show-job-gpu.txt" 2>&1; grep -q JobState=RUNNING "$report/show-job-gpu.txt" && break; sleep 0.25
done
wait_done "$gpu"; cp "$work/gpu-$gpu.out" "$report/"
check "GPU job: CUDA_VISIBLE_DEVICES=0" grep -q '^CUDA=0 JOB_GPUS=0' "$work/gpu-$gpu.out"
check "GPU job: torch computes on the GPU" grep -q '^devices 1 sum 1048576.0' "$work/gpu-$gpu.out"
cpus_of() { # the CPU count of a Cpus_allowed_list line in a file
  sed -n 's/^Cpus_allowed_list:\s*//p' "$1" | tr ',' '\n' | awk -F- '{n += (NF == 2 ? $2 - $1 + 1 : 1)} END {print n + 0}'
}
check "GPU job: pinned to its 2 CPUs" test "$(cpus_of "$work/gpu-$gpu.out")" = 2
check "scontrol show job -d: GRES with its index" grep -q 'GRES=gpu.*(IDX:0)' "$report/show-job-gpu.txt"

# A job without a GPU cannot open the device, and CUDA finds none.
none=$(as_user sbatch --parsable -o none-%j.out --wrap \
  'echo CUDA=${CUDA_VISIBLE_DEVICES-unset};
   python3 -c "open(\"/dev/nvidia0\",\"rb\")" 2>&1 | tail -1;
   python3 -c "import torch; print(\"available\", torch.cuda.is_available())" 2>&1 | tail -1')
wait_done "$none"; cp "$work/none-$none.out" "$report/"
check "no-GPU job: /dev/nvidia0 denied" grep -q 'PermissionError: \[Errno 1\] Operation not permitted' "$work/none-$none.out"
check "no-GPU job: torch sees no GPU" grep -q '^available False' "$work/none-$none.out"

# A job over its memory ends OUT_OF_MEMORY (the cgroup's limit), the GPU job beside it untouched.
oom=$(as_user sbatch --parsable --mem=100M -o oom-%j.out --wrap \
  'python3 -c "b=bytearray(600*1024*1024); print(len(b))"')
wait_done "$oom"; scontrol show job "$oom" >"$report/show-job-oom.txt"; cp "$work/oom-$oom.out" "$report/" 2>/dev/null
check "over-memory job: OUT_OF_MEMORY 0:125" grep -q 'JobState=OUT_OF_MEMORY .*' "$report/show-job-oom.txt"

# srun inside an allocation: the step gets the job's GPU.
as_user srun --gres=gpu:1 -n1 sh -c 'echo STEP CUDA=$CUDA_VISIBLE_DEVICES STEP_GPUS=$SLURM_STEP_GPUS; nvidia-smi -L' \
  >"$report/srun.txt" 2>&1
check "srun --gres=gpu:1: the step sees the GPU" grep -q '^STEP CUDA=0 STEP_GPUS=0' "$report/srun.txt"

# PyTorch distributed from Slurm's variables: two srun tasks, and torchrun's rendezvous at the
# first host of the allocation, as users write it. Node names must resolve, as on a real cluster.
grep -q '[[:space:]]g1$' /etc/hosts || echo "127.0.0.1 g1" >>/etc/hosts
cat >"$work/dist.py" <<'PY'
import os, torch, torch.distributed as dist
rank = int(os.environ.get("RANK", os.environ["SLURM_PROCID"]))
world = int(os.environ.get("WORLD_SIZE", os.environ["SLURM_NTASKS"]))
if "MASTER_ADDR" not in os.environ:  # plain srun: what Lightning and submitit derive
    os.environ["MASTER_ADDR"] = os.environ["HEAD"]
    os.environ["MASTER_PORT"] = "29511"
dist.init_process_group("gloo", rank=rank, world_size=world)
t = torch.tensor([rank + 1.0])
dist.all_reduce(t)
print(f"rank {rank}/{world} local {os.environ.get('LOCAL_RANK', os.environ['SLURM_LOCALID'])} sum {t.item()}")
dist.destroy_process_group()
PY
chmod 644 "$work/dist.py"
as_user salloc -n2 sh -c 'export HEAD=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -1); srun -l python3 dist.py' \
  >"$report/torch-srun.txt" 2>&1
check "srun -n2: torch.distributed from SLURM_PROCID/NTASKS" test "$(grep -c 'sum 3.0' "$report/torch-srun.txt")" = 2
as_user salloc -n2 sh -c 'srun -n1 torchrun --nnodes=1 --nproc_per_node=2 --rdzv_backend=c10d \
  --rdzv_endpoint=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -1):29512 dist.py' >"$report/torchrun.txt" 2>&1
# (one task's two ranks share its stdout: with PYTHONUNBUFFERED their lines may interleave)
check "srun torchrun: rendezvous at the allocation's first host" test "$(grep -o 'sum 3.0' "$report/torchrun.txt" | wc -l)" = 2

sacct -a -X -P -o JobID,State,ExitCode,AllocTRES >"$report/sacct.txt" 2>&1
check "sacct AllocTRES has gres/gpu" grep -q 'gres/gpu=1' "$report/sacct.txt"

"$home/corral" down --dir "$home/cluster" >/dev/null 2>&1
grep -h -i 'confinement\|cgroup' "$home/cluster/log/"*.log "$home/cluster/log/"*.out 2>/dev/null | head -20
tar -C "$home/cluster" -czf "$report/logs.tar.gz" log

# MPS: the GPU shared by jobs holding parts of it, through NVIDIA's MPS daemon (started here as a
# site's prolog would), never beside a job using it whole.
# (--mem: with no DefMemPerCPU a job would get the whole node's memory, as in Slurm)
if command -v nvidia-cuda-mps-control >/dev/null; then
  cat >"$conf/slurm.conf" <<EOF
ClusterName=gpumps
GresTypes=gpu,mps
NodeName=g1 CPUs=$cpus RealMemory=16000 Gres=gpu:1,mps:100
PartitionName=main Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  printf 'AutoDetect=nvidia\nName=mps Count=100 File=/dev/nvidia0\n' >"$conf/gres.conf"
  export CUDA_MPS_PIPE_DIRECTORY=/tmp/nvidia-mps CUDA_MPS_LOG_DIRECTORY=/tmp/nvidia-mps-log
  mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
  nvidia-cuda-mps-control -d
  "$home/corral" up --dir "$home/cluster-mps" --port-base 16917 --config "$conf/slurm.conf" >"$report/up-mps.txt" 2>&1
  . "$home/cluster-mps/env"
  for _ in $(seq 1 60); do sinfo -h -o %t | grep -q idle && break; sleep 0.5; done
  mps_job='echo MPS=$CUDA_MPS_ACTIVE_THREAD_PERCENTAGE CUDA=$CUDA_VISIBLE_DEVICES;
    python3 -c "import torch,time; x=torch.ones(2048,2048,device=\"cuda\"); time.sleep(6); print(\"sum\", float((x@x).sum()))"'
  m1=$(as_user sbatch --parsable --gres=mps:50 --mem=1G -o mps-%j.out --wrap "$mps_job")
  m2=$(as_user sbatch --parsable --gres=mps:50 --mem=1G -o mps-%j.out --wrap "$mps_job")
  whole=$(as_user sbatch --parsable --gres=gpu:1 --mem=1G -o whole-%j.out --wrap 'nvidia-smi -L')
  sleep 3
  squeue -o '%i %t %b %R' >"$report/squeue-mps.txt"
  check "two mps:50 jobs run at once on the one GPU" test "$(grep -c ' R ' "$report/squeue-mps.txt")" = 2
  check "a whole-GPU job waits beside them" grep -q "^$whole PD .*(Resources)" "$report/squeue-mps.txt"
  wait_done "$m1"; wait_done "$m2"; wait_done "$whole"
  cat "$work/mps-$m1.out" "$work/mps-$m2.out" >"$report/mps.txt" 2>&1
  check "mps jobs: CUDA_MPS_ACTIVE_THREAD_PERCENTAGE=50 and a matmul each" \
    test "$(grep -c '^MPS=50 CUDA=0' "$report/mps.txt")" = 2 -a "$(grep -c '^sum 8589934592.0' "$report/mps.txt")" = 2
  echo get_server_list | nvidia-cuda-mps-control >"$report/mps-servers.txt" 2>&1
  "$home/corral" down --dir "$home/cluster-mps" >/dev/null 2>&1
  echo quit | nvidia-cuda-mps-control
fi
echo "failures: $fails"
exit "$fails"
