# JVM flags of the user commands (sourced after find-java.sh): start fast and quietly.
# Serial GC and C1 only; no perf data file; UL logging off, so that a stale class cache is
# skipped silently instead of warning on the command's output.
CORRAL_CLI_FLAGS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData -Xlog:disable"
# protobuf-javalite uses sun.misc.Unsafe; JDK 23+ warns about it unless told it may.
if [ "$CORRAL_JAVA_MAJOR" -ge 23 ]; then
  CORRAL_CLI_FLAGS="$CORRAL_CLI_FLAGS --sun-misc-unsafe-memory-access=allow"
fi
