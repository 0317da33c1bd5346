#!/bin/bash
# Written by 'prism sbatch': one srun step per task count; in each, every task is a PRISM rank
# and rank 0 coordinates, measures and writes the results.
#SBATCH --job-name=qualify
#SBATCH --ntasks=32
#SBATCH --nodes=4
#SBATCH --overcommit
#SBATCH --time=01:00:00
#SBATCH --output=prism-%j.out
set -euo pipefail
PRISM=${PRISM:-<prism>}
export PRISM_RUN_SECRET=${PRISM_RUN_SECRET:-$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')}
for n in 8 16 32; do
  srun --ntasks="$n" --overcommit "$PRISM" run create_files list_files --target /mnt/lustre/prism -p files=1000 --launcher slurm --tasks "$n" --run-id "${SLURM_JOB_ID}-t$n"
done
