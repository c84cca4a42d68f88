#!/usr/bin/env bash
# Installs the pinned tools the chart's tests drive into a cache directory, built with the
# machine's Go; skips each one already present. Prints the directory holding the binaries.
set -euo pipefail
helm_version=v3.22.0
unittest_version=v1.1.2
kubernetes_validate_version=1.37.0
tools=${CAIRN_TOOLS:-$HOME/.cache/cairn-tools}
bin=$tools/bin
mkdir -p "$bin"
export GOTOOLCHAIN=local

if [ ! -x "$bin/helm-$helm_version" ]; then
  echo "test-helm: building helm $helm_version" >&2
  GOBIN=$tools/build-helm go install "helm.sh/helm/v3/cmd/helm@$helm_version" >&2
  mv "$tools/build-helm/helm" "$bin/helm-$helm_version"
fi
ln -sf "helm-$helm_version" "$bin/helm"

if [ ! -x "$bin/helm-unittest-$unittest_version" ]; then
  echo "test-helm: building helm-unittest $unittest_version" >&2
  module_dir=$(go mod download -json "github.com/helm-unittest/helm-unittest@$unittest_version" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  src=$tools/src/helm-unittest-$unittest_version
  rm -rf "$src"; mkdir -p "$(dirname "$src")"
  cp -r "$module_dir" "$src"; chmod -R u+w "$src"
  (cd "$src" && go build -o "$bin/helm-unittest-$unittest_version" ./cmd/helm-unittest) >&2
fi
ln -sf "helm-unittest-$unittest_version" "$bin/helm-unittest"

venv=$tools/venv
if [ ! -x "$venv/bin/kubernetes-validate" ] \
   || ! "$venv/bin/pip" show kubernetes-validate 2>/dev/null | grep -qx "Version: $kubernetes_validate_version" \
   || ! "$venv/bin/python" -c "import boto3, yaml" 2>/dev/null; then
  echo "test-helm: installing kubernetes-validate $kubernetes_validate_version, pyyaml, boto3" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check \
    "kubernetes-validate==$kubernetes_validate_version" "pyyaml==6.0.3" "boto3==1.43.11" >&2
fi
echo "$tools"
