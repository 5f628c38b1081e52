# Sourced by the benchmarks: time_runs CMD... runs the command $runs times (stdout dropped) and
# prints the median and the mean wall time.
time_runs() {
  for _ in $(seq "$runs"); do
    s=$(date +%s%N); "$@" >/dev/null; e=$(date +%s%N)
    echo $(( (e - s) / 1000000 ))
  done | sort -n | awk '{ a[NR] = $1; t += $1 } END { printf "median %d ms, mean %d ms over %d runs\n", a[int((NR + 1) / 2)], t / NR, NR }'
}
