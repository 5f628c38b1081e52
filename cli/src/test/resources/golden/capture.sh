#!/bin/bash
# Runs every case of cases.txt against the real Slurm commands and stores, per case, the
# output (NAME.out), error output (NAME.err), exit status (NAME.rc) and the time it ran (NAME.time,
# epoch seconds: the golden tests' clock). JOBn in a case stands for the n-th id setup.sh listed.
cd "$(dirname "$0")"
mapfile -t IDS < /tmp/corral-golden-jobs
grep -v '^#' cases.txt | grep -v '^$' | while read -r tool name rest; do
  mkdir -p "$tool"
  args=$rest
  for ((i = ${#IDS[@]} - 1; i >= 0; i--)); do args=${args//JOB$((i + 1))/${IDS[$i]}}; done
  eval "set -- $args"
  envs=()
  while [ $# -gt 0 ] && [[ $1 =~ ^[A-Z_]+= ]]; do envs+=("$1"); shift; done
  date +%s > "$tool/$name.time"
  env "${envs[@]}" /usr/bin/$tool "$@" > "$tool/$name.out" 2> "$tool/$name.err" < /dev/null
  echo $? > "$tool/$name.rc"
done
