# Sourced: lays out Corral from the bundle (make-bundle.sh) in a fresh folder readable by every
# user, as `corral up` expects it, and points JAVA_HOME at the bundle's runtime. Needs $src (the
# checkout); sets $home.
[ -d "$src/build/device" ] || tar -C "$src/build" -xJf "$src/build/device.tar.xz"
home=$(mktemp -d /tmp/corral-gpu-XXXXXX)
chmod 755 "$home"
cp -r "$src/bin" "$src/libexec" "$src/corral" "$home/"
mkdir -p "$home/build" && cp -r "$src/build/device/lib" "$home/build/lib" && cp -r "$src/build/device/jre" "$home/jre"
chmod -R a+rX "$home"
export JAVA_HOME=$home/jre CORRAL_SKIP_BUILD=1
