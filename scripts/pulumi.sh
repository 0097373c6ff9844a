#!/usr/bin/env bash
# The main job: `pulumi <up|preview|destroy|refresh>` of one stack with a local file:// backend
# and passphrase secrets (no Pulumi account). Usage: npm run up [-- <pulumi flags>]
# Before `up`, a kind cluster of the stack deleted outside it is dropped from the state with
# everything that went with it, and `up` recreates them (scripts/lost-clusters.ts).
#   STACK                     stack name (default: dev, i.e. Pulumi.dev.yaml). Pulumi runs in the
#                             project folder that holds Pulumi.<stack>.yaml: the root (dev, and a
#                             new stack), examples/fleet (fleet), examples/dr (dr-*), testbed/stacks
#                             (lab-*, which use the lab); see scripts/stack-files.ts
#   PULUMI_BACKEND_URL        backend (default: file://<project>/.state?metadata=skip)
#   PULUMI_CONFIG_PASSPHRASE or PULUMI_CONFIG_PASSPHRASE_FILE: encrypts the stack's secrets
#   PULUMI_PARALLEL           resource operations at once (default 64; Pulumi's own default is
#                             4 x CPUs, which on small machines makes independent members queue
#                             behind each other although each operation only waits on an API server)
#   PULUMI_CONTINUE_ON_ERROR  destroy: default true (`--continue-on-error`): with one member down,
#                             destroy still removes everything it can reach, and fails at the end
#                             naming that member; set false to stop at the first error
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:?usage: scripts/pulumi.sh <up|preview|destroy|refresh> [pulumi flags]}; shift
stack=${STACK:-dev}

fail() { echo "error: $*" >&2; exit 1; }
# Lab stacks (lab-*) use the lab's own binaries: the Pulumi CLI, its plugins, nothing downloaded.
case "$stack" in
  lab-*)
    bin=$(bash testbed/lab/build.sh --print-bin-dir)
    [ -x "$bin/pulumi" ] || fail "the lab's binaries are not built; run \`npm run lab:build\` (and \`npm run lab:up\`)"
    export PATH="$bin:$PWD/testbed/lab/shims:$PATH" PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true
    [ -f .lab/state.json ] || [ -n "${IKO_LAB_DIR:-}" ] || fail "no lab is running; start it with \`npm run lab:up\`" ;;
esac
command -v pulumi >/dev/null 2>&1 || fail "the pulumi CLI is not on PATH; install it (https://www.pulumi.com/docs/iac/download-install/) and run again"
[ -d node_modules/@pulumi/pulumi ] || fail "node modules are missing; run \`npm ci\` first"
if [ -z "${PULUMI_CONFIG_PASSPHRASE+x}" ] && [ -z "${PULUMI_CONFIG_PASSPHRASE_FILE:-}" ]; then
  fail "set PULUMI_CONFIG_PASSPHRASE (or PULUMI_CONFIG_PASSPHRASE_FILE): it encrypts this stack's secrets (kubeconfigs, tokens)"
fi
if [ -z "${PULUMI_BACKEND_URL:-}" ]; then
  mkdir -p .state
  # metadata=skip: no `.attrs` sidecar beside each checkpoint (see preview/backend.ts: a kill while
  # the backend rewrote one left it empty, and every later command failed "failed to load
  # checkpoint: EOF"). A sidecar left empty that way by an older run is removed here.
  export PULUMI_BACKEND_URL="file://$PWD/.state?metadata=skip"
  if [ -d .state/.pulumi/stacks ]; then
    find .state/.pulumi/stacks -name '*.attrs' -size 0 -print -delete | sed 's/^/pulumi.sh: removed an empty checkpoint sidecar (left by a killed run): /' >&2
  fi
fi
export PULUMI_PARALLEL=${PULUMI_PARALLEL:-64}
if [ "$cmd" = destroy ]; then export PULUMI_CONTINUE_ON_ERROR=${PULUMI_CONTINUE_ON_ERROR:-true}; fi
# The Kubernetes provider (v4.25.0) writes its kubeconfig, credentials included, to a new file
# $TMPDIR/kubeconfig<N> each time a provider starts, and never removes it. The run gets a private
# TMPDIR, removed when it ends, so no credentials are left behind.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/iko-plus-pulumi.XXXXXX")
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR=$run_tmp
# The stack's project folder (scripts/stack-files.ts); every command below runs there.
project_dir=$(node -r ts-node/register/transpile-only scripts/stack-files.ts dir "$stack") || exit 1
root=$PWD
cd "$project_dir"
pulumi stack select --create --secrets-provider passphrase "$stack" >/dev/null
# A kind cluster deleted outside the stack: `up` first drops it and what went with it from the
# state (then recreates them); `preview` says so. A paused or stopped one is named, with the
# command that brings it back, before up, preview and destroy (scripts/lost-clusters.ts).
case "$cmd" in
  up) node -r ts-node/register/transpile-only "$root/scripts/lost-clusters.ts" recover "$stack" ;;
  preview) node -r ts-node/register/transpile-only "$root/scripts/lost-clusters.ts" report "$stack" ;;
  destroy) node -r ts-node/register/transpile-only "$root/scripts/lost-clusters.ts" check "$stack" ;;
esac
pulumi "$cmd" --stack "$stack" "$@"
