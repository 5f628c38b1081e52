# JVM flags and class path of the user commands (sourced after find-java.sh, with $lib set to
# build/lib): start fast and quietly. Serial GC; C1 only, and only for code that runs long
# (a short command spends more CPU compiling than running); no perf data file; UL logging off,
# so that a stale class cache is skipped silently instead of warning on the command's output.
# The class cache mapped where it was made rather than at a random address (relocating its
# pointers cost ~4 ms of CPU a command); reflection through native accessors, not method handles
# spun on first use (protobuf's set-up, EnumMap, the JDK's SecureRandom reached from Unix sockets).
# Only the jars the commands need: fewer to open and check. SnakeYAML last: only sacct --yaml
# loads a class from it, so no other lookup reaches it.
CORRAL_CLI_FLAGS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=20 -XX:-UsePerfData -Xlog:disable"
CORRAL_CLI_FLAGS="$CORRAL_CLI_FLAGS -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0 -Djdk.reflect.useNativeAccessorOnly=true"
CORRAL_CLI_CLASSPATH="$lib/corral-cli.jar:$lib/corral-protocol.jar:$lib/corral-common.jar:$lib/protobuf-javalite.jar:$lib/snakeyaml.jar"
# protobuf-javalite uses sun.misc.Unsafe; JDK 23+ warns about it unless told it may.
if [ "$CORRAL_JAVA_MAJOR" -ge 23 ]; then
  CORRAL_CLI_FLAGS="$CORRAL_CLI_FLAGS --sun-misc-unsafe-memory-access=allow"
fi
