#!/usr/bin/env bash
# Builds the pinned peers the side-by-side benchmarks compare Cairn with (MinIO, and warp, the
# S3 benchmark client they are measured by) and SeaweedFS, and vegeta (a light open-loop HTTP load
# generator), with the machine's Go, into a cache directory; skips each one already built. Prints
# the directory holding the binaries.
# usage: loadtest/install-peers.sh [warp] [minio] [seaweedfs] [vegeta]   (default: warp and minio)
set -euo pipefail
warp_version=v1.0.0
# MinIO publishes no semantic-version tags: this is its module version for the commit built.
minio_version=v0.0.0-20260212201848-7aac2a2c5b7c
# SeaweedFS's release tags are not semantic versions either: its module version for the commit built.
seaweedfs_version=v0.0.0-20261109003541-7506e5f91cd6
vegeta_version=v12.13.0
tools=${CAIRN_TOOLS:-$HOME/.cache/cairn-tools}
bin=$tools/bin
mkdir -p "$bin"
export GOTOOLCHAIN=local
# The checksum database does not list these versions; each module's own go.sum pins its dependencies.
export GONOSUMDB=github.com/minio/warp,github.com/minio/minio,github.com/seaweedfs/seaweedfs

# Downloaded as a module and built in a copy of it (`go install mod@version` also asks for the
# module's version list, which the proxy may refuse).
build() { # name module-path version package
  if [ ! -x "$bin/$1-$3" ]; then
    echo "install-peers: building $1 $3 (a few minutes)" >&2
    local dir src=$tools/src/$1-$3
    dir=$(go mod download -json "$2@$3" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
    rm -rf "$src"; mkdir -p "$(dirname "$src")"
    cp -r "$dir" "$src"; chmod -R u+w "$src"
    (cd "$src" && nice go build -o "$bin/$1-$3.tmp" "$4") >&2
    mv "$bin/$1-$3.tmp" "$bin/$1-$3"
    rm -rf "$src"
  fi
  ln -sf "$1-$3" "$bin/$1"
}

tools_wanted=("$@")
[ ${#tools_wanted[@]} -gt 0 ] || tools_wanted=(warp minio)
for tool in "${tools_wanted[@]}"; do
  case "$tool" in
    warp) build warp github.com/minio/warp "$warp_version" . ;;
    minio) build minio github.com/minio/minio "$minio_version" . ;;
    seaweedfs) build weed github.com/seaweedfs/seaweedfs "$seaweedfs_version" ./weed ;;
    vegeta) build vegeta github.com/tsenart/vegeta/v12 "$vegeta_version" . ;;
    *) echo "install-peers: unknown tool $tool" >&2; exit 2 ;;
  esac
done
echo "$bin"
