#!/bin/bash
# Compares the two live recordings (ref/ and corral/) case by case, masked as LiveGoldenTest
# masks them; prints the cases that differ with a diff of each. -q: names only. REC=DIR compares
# another recording's (golden/tools).
cd "${REC:-$(dirname "$0")}"
mask() { perl -pe 's/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/#/g; s/(?<![\d:-])\d:\d\d(?![\d:])/#/g;
  s/(?<![\d:-])00:0\d:\d\d(?![\d:])/#/g; s/(?<=CPULoad=)[\d.]+/#/g; s/(?<=FreeMem=)\d+/#/g;
  s/(?<=AllocNode:Sid=)\S{1,64}:\d+/#/g; s/(NodeHostName=\S{1,64} Port=)\d+/$1#/g; s/^\w{3} \w{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/#/' "$1"; }
same=0; total=0
for a in ref/*.args; do
  n=$(basename "$a" .args); total=$((total + 1)); bad=""
  for x in out err rc; do
    cmp -s <(mask "ref/$n.$x") <(mask "corral/$n.$x") || bad="$bad $x"
  done
  if [ -z "$bad" ]; then same=$((same + 1)); continue; fi
  echo "== $n ($(tr '\n' ' ' < "$a")):$bad"
  [ "${1:-}" = -q ] && continue
  for x in $bad; do diff <(mask "ref/$n.$x") <(mask "corral/$n.$x") | head -${LINES_PER:-20}; done
done
echo "$same of $total identical"
