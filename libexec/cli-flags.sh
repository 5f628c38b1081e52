# JVM flags and class path of the user commands (sourced after find-java.sh, with $lib set to
# build/lib): start fast and quietly. Serial GC; C1 only, and only for code that runs long
# (a short command spends more CPU compiling than running); no perf data file; UL logging off,
# so that a stale class cache is skipped silently instead of warning on the command's output.
# The class cache mapped where it was made rather than at a random address (relocating its
# pointers cost ~4 ms of CPU a command); reflection through native accessors, not method handles
# spun on first use (protobuf's set-up, EnumMap, the JDK's SecureRandom reached from Unix sockets).
# Only the jars the commands need: fewer to check and to search. SnakeYAML only for sacct
# (--yaml is its only user).
CORRAL_CLI_FLAGS="-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:CompileThresholdScaling=20 -XX:-UsePerfData -Xlog:disable"
CORRAL_CLI_FLAGS="$CORRAL_CLI_FLAGS -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0 -Djdk.reflect.useNativeAccessorOnly=true"
# The JDK's own socket provider named, so that the first socket does not search every jar on
# the class path for another one (a ServiceLoader lookup: ~4 ms of CPU a command). Linux's.
CORRAL_CLI_FLAGS="$CORRAL_CLI_FLAGS -Djava.nio.channels.spi.SelectorProvider=sun.nio.ch.EPollSelectorProvider"
CORRAL_CLI_CORE="$lib/corral-cli.jar:$lib/corral-protocol.jar:$lib/corral-common.jar:$lib/protobuf-javalite.jar"
CORRAL_CLI_CLASSPATH="$CORRAL_CLI_CORE:$lib/snakeyaml.jar"
# Sets CORRAL_CLI_CP, the class path of the command $1 (no subshell: the launcher runs it).
# The launchers put these jars on the boot loader's appended path (-Xbootclasspath/a), so the
# commands' classes are the boot loader's: protobuf's set-up looks for classes that are never
# there (Android's, the full runtime's), and such a miss through the application class loader
# opens and indexes every jar in interpreted Java (~5 ms of CPU a command), where the boot
# loader's search is the JVM's own, in native code. The class path proper is an empty jar
# (CORRAL_CLI_EMPTY_CP, made by libexec/corral-train): service lookups through the system class
# loader (java.util.logging's, started by protobuf) search it, and it is the cheapest thing to
# search that is not the working directory (the default class path) nor a directory (which the
# class caches refuse).
CORRAL_CLI_EMPTY_CP="$lib/../cli-class-path.jar"
corral_cli_classpath() {
  case $1 in
    sacct) CORRAL_CLI_CP=$CORRAL_CLI_CLASSPATH ;;
    *) CORRAL_CLI_CP=$CORRAL_CLI_CORE ;;
  esac
}
# protobuf-javalite uses sun.misc.Unsafe; JDK 23+ warns about it unless told it may.
if [ "$CORRAL_JAVA_MAJOR" -ge 23 ]; then
  CORRAL_CLI_FLAGS="$CORRAL_CLI_FLAGS --sun-misc-unsafe-memory-access=allow"
fi
