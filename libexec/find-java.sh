# Finds a JDK 21 or newer for Corral's launchers and ./mvnw (sourced, POSIX sh).
# Order: $JAVA_HOME, then the newest under /usr/lib/jvm. Reads each JDK's `release` file
# rather than running `java -version`, so the CLI's start-up pays nothing for the check.
# On success sets CORRAL_JAVA_HOME and CORRAL_JAVA_MAJOR; otherwise prints what it found and returns 1.

corral_java_major() {
  [ -x "$1/bin/java" ] || return 1
  _v=""
  if [ -r "$1/release" ]; then # read with the shell itself: no process to start
    while IFS= read -r _line; do
      case $_line in
        JAVA_VERSION=*) _v=${_line#JAVA_VERSION=\"}; _v=${_v%%[!0-9]*}; break ;;
      esac
    done <"$1/release"
  fi
  if [ -z "$_v" ]; then # no release file: ask the JVM itself
    _v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9][0-9]*\).*/\1/p' | head -n 1)
  fi
  [ -n "$_v" ] && echo "$_v"
}

corral_find_java() {
  _seen=""
  if [ -n "${JAVA_HOME:-}" ]; then
    _m=$(corral_java_major "$JAVA_HOME")
    if [ -n "$_m" ] && [ "$_m" -ge 21 ]; then CORRAL_JAVA_HOME=$JAVA_HOME; CORRAL_JAVA_MAJOR=$_m; return 0; fi
    _seen="$_seen
  JAVA_HOME=$JAVA_HOME (Java ${_m:-?})"
  fi
  _best=""; _bestm=0
  for _h in /usr/lib/jvm/*; do
    [ -d "$_h" ] || continue
    _m=$(corral_java_major "$_h") || continue
    _seen="$_seen
  $_h (Java $_m)"
    if [ "$_m" -ge 21 ] && [ "$_m" -gt "$_bestm" ]; then _best=$_h; _bestm=$_m; fi
  done
  if [ -n "$_best" ]; then CORRAL_JAVA_HOME=$_best; CORRAL_JAVA_MAJOR=$_bestm; return 0; fi
  echo "corral: no JDK 21 or newer found; Corral needs one.${_seen:+ Found:$_seen}
  Set JAVA_HOME to a JDK 21+ or install one under /usr/lib/jvm (e.g. apt-get install openjdk-21-jdk-headless)." >&2
  return 1
}
