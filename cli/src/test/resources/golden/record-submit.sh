#!/bin/bash
# Records each case's stdout, stderr and exit status from a real Slurm 22.05 command.
# Usage: ./record-submit.sh sbatch|scancel [case...]
# A case directory holds: args (one argument a line), optional stdin, optional script files,
# and for a controller refusal "response" (error code and message the fake controller returns).
# Run as root on a host with a running Slurm. Jobs sbatch submits are
# listed in $JOBS_FILE (default /tmp/golden-sbatch-jobs) to cancel afterwards.
# argv[0] is set to the command's name, as when run through PATH; the environment is emptied.
# Never record scancel cases that match real jobs by filter: they cancel other users' jobs.
set -u
cmd=$1
shift
here=$(cd "$(dirname "$0")" && pwd)/$cmd
jobs=${JOBS_FILE:-/tmp/golden-sbatch-jobs}
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=($(cd "$here" && ls -d */ | tr -d /))
for c in "${cases[@]}"; do
  dir="$here/$c"
  work=$(mktemp -d)
  (cd "$dir" && for f in *; do
     case "$f" in args|stdin|stdout|stderr|rc|response|jobid) ;; *) cp "$f" "$work/" ;; esac
   done)
  mapfile -t args < "$dir/args"
  input=/dev/null
  [ -f "$dir/stdin" ] && input="$dir/stdin"
  (cd "$work" && env -i PATH=/usr/bin:/bin HOME=/root PWD="$work" \
     bash -c 'exec -a "$0" "/usr/bin/$0" "$@"' "$cmd" "${args[@]}" \
     < "$input" > "$dir/stdout" 2> "$dir/stderr"; echo $? > "$dir/rc")
  if [ "$cmd" = sbatch ]; then
    id=$(grep -oE '[0-9]+$' "$dir/stdout" | head -1)
    rm -f "$dir/jobid"
    [ -n "$id" ] && { echo "$id" > "$dir/jobid"; echo "$id" >> "$jobs"; }
  fi
  rm -rf "$work"
done
