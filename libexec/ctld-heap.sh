# The controller's heap (sourced by corral-run for slurmctld, with its arguments): derived from
# MaxJobCount in the slurm.conf it will read (-f FILE, else $SLURM_CONF, else
# /etc/slurm/slurm.conf; Slurm's default 10000 when unset), as docs/BENCHMARKS.md ("Controller
# heap") measured it: 256 MiB for the rest of the controller plus 4 KiB per job (a pending job's
# record is ~1.3-2 KiB of heap, its script and environment are files on disk; the other half is
# room for a full query's reply and the collector), at least 512 MiB, in whole MiB.
# CORRAL_SLURMCTLD_HEAP (a -Xmx size such as 6g) overrides it.
# Sets CORRAL_CTLD_XMX.
corral_ctld_heap() {
  if [ -n "${CORRAL_SLURMCTLD_HEAP:-}" ]; then
    CORRAL_CTLD_XMX="-Xmx$CORRAL_SLURMCTLD_HEAP"
    return
  fi
  conf=${SLURM_CONF:-/etc/slurm/slurm.conf}
  while [ $# -gt 0 ]; do
    case "$1" in
      -f) [ $# -gt 1 ] && conf=$2; shift ;;
      -f*) conf=${1#-f} ;;
    esac
    shift
  done
  jobs=$(awk -F= 'tolower($1) ~ /^[ \t]*maxjobcount[ \t]*$/ { gsub(/[ \t]/, "", $2); v = $2 } END { print v }' \
    "$conf" 2>/dev/null)
  case "$jobs" in
    ''|*[!0-9]*) jobs=10000 ;;
  esac
  mib=$((256 + jobs * 4 / 1024))
  [ "$mib" -lt 512 ] && mib=512
  CORRAL_CTLD_XMX="-Xmx${mib}m"
}
