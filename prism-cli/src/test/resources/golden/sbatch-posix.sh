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
  # --kill-on-bad-exit=0: a task that dies (its node lost, the OOM killer) does not make srun end the
  # step; rank 0 notices, stops the others and writes the run's documents with all they measured. With
  # KillOnBadExit=1 (some sites' default) srun would SIGTERM every task at once and SIGKILL it KillWait
  # later: each still writes its own rank document, but the run's holds only what reached rank 0 in time.
  srun --ntasks="$n" --overcommit --kill-on-bad-exit=0 "$PRISM" run create_files list_files --target /mnt/lustre/prism -p files=1000 --launcher slurm --tasks "$n" --run-id "${SLURM_JOB_ID}-t$n"
done
