#!/bin/bash
# Written by 'prism sbatch': one 'prism run' per task count on the first node; it starts one
# torchrun agent per node with srun, and every rank writes into the run directory on the target.
#SBATCH --job-name=prism
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --exclusive
#SBATCH --time=01:00:00
#SBATCH --output=prism-%j.out
set -euo pipefail
PRISM=${PRISM:-<prism>}
export PRISM_RUN_SECRET=${PRISM_RUN_SECRET:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')}
for n in 8; do
  "$PRISM" run fsdp_save --target /mnt/lustre/prism --tasks "$n" --torch-nodes 2 --run-id "${SLURM_JOB_ID}-t$n"
done
