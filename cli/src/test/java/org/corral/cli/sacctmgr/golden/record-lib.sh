# Sourced by the record-*.sh scripts: run NAME COMMAND... records one case from the reference as
# NAME.cmd (the command line), NAME.out, NAME.err and NAME.rc, in this folder.
set -u
cd "$(dirname "$0")"
S=/usr/bin/sacctmgr
run() { # NAME COMMAND...
  name=$1; shift
  echo "$*" > "$name.cmd"
  "$@" > "$name.out" 2> "$name.err"
  echo $? > "$name.rc"
}
