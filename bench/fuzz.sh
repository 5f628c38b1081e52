#!/usr/bin/env bash
# The decoders' fuzz targets (issue 23) for longer than CI runs them: protobuf frames, slurm.conf
# lines, #SBATCH lines and REST JSON bodies. Each round runs every target once with a fresh random
# seed (jqwik's default), so ROUNDS rounds try ROUNDS times CI's few hundred inputs per target.
# A failure stops the loop; jqwik prints the shrunk input and its seed.
#   bench/fuzz.sh [ROUNDS]   (default 50)
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-50}
cd "$here"
targets='RequestFrameFuzzTest,FrameCodecTest,SlurmConfFuzzTest,SbatchDirectiveFuzzTest,RestJsonFuzzTest'
for i in $(seq "$rounds"); do
  ./mvnw -B -q -pl common,protocol,cli,restd -am test -Dtest="$targets" \
    -Dsurefire.failIfNoSpecifiedTests=false
  echo "fuzz round $i of $rounds: no failure"
done
