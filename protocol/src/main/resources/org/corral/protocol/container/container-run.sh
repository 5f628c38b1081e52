# Runs one task (or batch script) in an OCI container, as the job's user, in the job's cgroup
# (docs/adr/0009-container-runtime.md). slurmd passes this text to "sh -c" with its arguments;
# nothing here is parsed from user input by a shell except the runtime commands, whose
# substituted values slurmd has quoted.
#
#   sh -c TEXT corral-container BUNDLE CONFIG KIND IMAGE CACHE ROOTFS RUN CREATE START QUERY KILL DELETE \
#                               ENVFILE ENVTEXT PREFIX
# BUNDLE  an empty directory of the user's for this task: config.json is written there
# KIND    none (ROOTFS names the bundle's own root) | squashfs | docker-archive | oci-archive | dir
# CACHE   the user's image cache on this node: images are unpacked there once and reused
# ROOTFS  "" (config.json names the root) | shared (the cached image, read-only) | copy:DIR (a
#         private copy kept in DIR, made from the image when DIR has none); its path replaces
#         @CORRAL_ROOTFS@ in CONFIG
# RUN...  the runtime's commands (oci.conf), RUN or else CREATE+START (polled with QUERY)
# PREFIX  what starts each error line ("slurmstepd: error: pyxis: ")
set -u
bundle=$1 config=$2 kind=$3 image=$4 cache=$5 rootfs=$6 run=$7 create=$8 start=$9
shift 9
query=$1 kill=$2 delete=$3 envfile=$4 envtext=$5 prefix=$6
umask 077

fail() {
  for line in "$@"; do printf '%s%s\n' "$prefix" "$line" >&2; done
  cleanup
  exit 1
}

cleanup() {
  [ -n "$delete" ] && sh -c "$delete" >/dev/null 2>&1
  rm -rf "$bundle/config.json" "$bundle/rootfs" "$bundle/private" "$bundle/env" "$bundle/runtime.log" 2>/dev/null
}

# Applies one image layer (a tar file, compressed or not) onto $1, with OCI whiteouts.
apply_layer() {
  layer_dir=$(mktemp -d "$cache/.layer.XXXXXX") || return 1
  if ! tar -xf "$2" -C "$layer_dir" --no-same-owner --no-same-permissions --exclude='dev/*' 2>"$layer_dir.err"; then
    cat "$layer_dir.err" >&2; rm -rf "$layer_dir" "$layer_dir.err"; return 1
  fi
  rm -f "$layer_dir.err"
  find "$layer_dir" -name '.wh.*' | while IFS= read -r wh; do
    rel=${wh#"$layer_dir"/}
    dir=$(dirname "$rel") base=$(basename "$rel")
    if [ "$base" = .wh..wh..opq ]; then
      find "$1/$dir" -mindepth 1 -maxdepth 1 -exec rm -rf {} + 2>/dev/null
    else
      rm -rf "$1/$dir/${base#.wh.}"
    fi
    rm -f "$wh"
  done
  cp -a "$layer_dir/." "$1/" && chmod -R u+rwX "$1" && rm -rf "$layer_dir"
}

# Unpacks the image into the new directory $1.
unpack() {
  work=$1.work
  mkdir -p "$1" "$work" || return 1
  case $kind in
    squashfs)
      rmdir "$1" && unsquashfs -no-progress -quiet -no-xattrs -dest "$1" "$image" >/dev/null || return 1 ;;
    dir)
      cp -a "$image/." "$1/" || return 1 ;;
    docker-archive)
      tar -xf "$image" -C "$work" manifest.json || return 1
      layers=$(tr -d '\n' <"$work/manifest.json" | sed -n 's/.*"Layers"[[:space:]]*:[[:space:]]*\[\([^]]*\)\].*/\1/p' \
        | tr ',' '\n' | sed 's/^[[:space:]]*"\(.*\)"[[:space:]]*$/\1/')
      [ -n "$layers" ] || { echo "manifest.json lists no layers" >&2; return 1; }
      for l in $layers; do
        tar -xf "$image" -C "$work" "$l" && apply_layer "$1" "$work/$l" || return 1
      done ;;
    oci-archive)
      tar -xf "$image" -C "$work" index.json || return 1
      digest=$(grep -o '"digest"[[:space:]]*:[[:space:]]*"sha256:[0-9a-f]*"' "$work/index.json" | head -1 | sed 's/.*sha256:\([0-9a-f]*\)"/\1/')
      [ -n "$digest" ] || { echo "index.json names no manifest" >&2; return 1; }
      tar -xf "$image" -C "$work" "blobs/sha256/$digest" || return 1
      layers=$(tr -d '\n' <"$work/blobs/sha256/$digest" | sed 's/.*"layers"//' \
        | grep -o '"digest"[[:space:]]*:[[:space:]]*"sha256:[0-9a-f]*"' | sed 's/.*sha256:\([0-9a-f]*\)"/\1/')
      for l in $layers; do
        tar -xf "$image" -C "$work" "blobs/sha256/$l" && apply_layer "$1" "$work/blobs/sha256/$l" || return 1
      done ;;
  esac
  rm -rf "$work"
}

# The image's unpacked root in the cache ($cached), unpacked now if it is not there yet.
cached_image() {
  id=$(stat -L -c '%d-%i-%s-%Y' "$image" 2>/dev/null) || fail "failed to create container filesystem" \
    "printing enroot log file:" "    [ERROR] No such file or directory: $image"
  cached="$cache/$kind-$id"
  [ -d "$cached" ] && return 0
  tmp="$cached.tmp.$$"
  rm -rf "$tmp"
  if ! unpack "$tmp" 2>"$tmp.log"; then
    log=$(cat "$tmp.log")
    rm -rf "$tmp" "$tmp.work" "$tmp.log"
    fail "failed to import image $image" "printing enroot log file:" "    [ERROR] ${log:-cannot unpack $image}"
  fi
  rm -f "$tmp.log"
  mv -T "$tmp" "$cached" 2>/dev/null || rm -rf "$tmp"   # another task of the same image was first
}

rootdir=
case $rootfs in
  '') ;;
  shared) cached_image; rootdir=$cached ;;
  copy:*)
    copy=${rootfs#copy:}
    if [ ! -d "$copy" ]; then
      cached_image
      mkdir -p "$(dirname "$copy")" && cp -a "$cached" "$copy.tmp.$$" && { mv -T "$copy.tmp.$$" "$copy" 2>/dev/null \
        || rm -rf "$copy.tmp.$$"; } || fail "failed to create container filesystem"
    fi
    rootdir=$copy ;;
esac

# scancel: the runtime is asked to end the container too (the job's processes get the signal as well)
trap '[ -n "$kill" ] && sh -c "$kill" >/dev/null 2>&1' TERM INT

# runc takes no symbolic link for a root: config.json names the directory itself
if [ -n "$rootdir" ]; then
  esc=$(printf '%s' "$rootdir" | sed 's/[\\"]/\\&/g')
  config=${config%%@CORRAL_ROOTFS@*}$esc${config#*@CORRAL_ROOTFS@}
fi
printf '%s\n' "$config" >"$bundle/config.json" || fail "cannot write $bundle/config.json"
[ -n "$envfile" ] && printf '%s' "$envtext" >"$envfile"

if [ -n "$run" ]; then
  sh -c "$run"
  rc=$?
else
  sh -c "$create" || fail "OCI runtime create failed"
  sh -c "$start" || fail "OCI runtime start failed"
  rc=0
  while state=$(sh -c "$query" 2>/dev/null) && ! printf '%s' "$state" | grep -q '"status"[[:space:]]*:[[:space:]]*"stopped"'; do
    sleep 0.2
  done
fi
cleanup
exit $rc
