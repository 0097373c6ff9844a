#!/usr/bin/env bash
# `npm test`: every test tier that exists, then one totals line: "N passed, N failed[, N skipped]".
# Static checks (TypeScript strict, ESLint) run first and count as one failure each if they fail.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0; failed=0; skipped=0
totals=$(mktemp)

check() { # name command...: a step that counts as one check
  local name=$1; shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); return 0; fi
  echo "FAILED: $name"; failed=$((failed + 1)); return 1
}

tier() { # name npm-script
  echo "== $1 tests (npm run $2)"
  rm -f "$totals"
  IKO_TEST_TOTALS="$totals" npm run --silent "$2"
  local rc=$?
  if [ -s "$totals" ]; then
    read -r p f s < <(node -e 'const t=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(t.passed,t.failed,t.skipped)' "$totals")
    passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); fi
  else
    echo "FAILED: $1 tests did not run (exit $rc)"; failed=$((failed + 1))
  fi
}

check "typecheck (tsc --noEmit, strict)" npx --no-install tsc --noEmit -p .
check "lint (eslint, prettier --check)" npm run --silent lint
tier unit test:unit

KIND_BUILD='bash testbed/lab/build.sh pulumi pulumi-language-nodejs pulumi-resource-kubernetes kubectl && bash testbed/kind-tier/build.sh && bash testbed/kind-tier/standins.sh build && bash testbed/kind-tier/karmada-images.sh build && bash testbed/kind-tier/cilium-images.sh build'
KIND_BUILD_NAME="kind build (the lab's Pulumi CLI and plugins, testbed/kind-tier/build.sh, the stand-in images, Karmada's chart and images, Cilium's images)"
kind_state=skip          # skip | unavailable | failed | up: the kind tier's Docker engine
kind_build_pid=""        # the kind build running in the background, while the lab tests run
kind_build_log=$(mktemp)
cleanup() {
  if [ -n "$kind_build_pid" ]; then kill -- "-$kind_build_pid" 2>/dev/null; fi
  if [ "${lab_started:-0}" = 1 ]; then npm run --silent lab:down >/dev/null 2>&1; fi
  if [ "$kind_state" = up ]; then
    bash testbed/kind-tier/registry.sh down >/dev/null 2>&1; bash testbed/kind-tier/engine.sh down >/dev/null 2>&1
  fi
  rm -f "$totals" "$kind_build_log"
}
trap cleanup EXIT

# The kind tier's engine (testbed/kind-tier/engine.sh: the one `docker info` finds, or Debian's docker.io
# started for this run). IKO_SKIP_KIND=1 leaves the tier out; so does a machine where no Docker
# engine can be had (engine.sh exits 3 and says why).
if [ "${IKO_SKIP_KIND:-0}" = 1 ]; then
  echo "== kind tests left out (IKO_SKIP_KIND=1)"
else
  echo "== kind engine (testbed/kind-tier/engine.sh up)"
  engine_log=$(mktemp)
  bash testbed/kind-tier/engine.sh up 2>&1 | tee "$engine_log"; rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 3 ]; then
    kind_state=unavailable
    echo "== kind tests left out: $(tail -n 1 "$engine_log" | sed 's/^engine.sh: //')"
  elif [ "$rc" -ne 0 ]; then
    kind_state=failed; echo "FAILED: kind engine"; failed=$((failed + 1))
  else
    kind_state=up; passed=$((passed + 1))
  fi
  rm -f "$engine_log"
fi

# The lab tier: build the lab's binaries (cached outside the repo), start the lab, run the lab
# tests, stop the lab whatever happened. IKO_SKIP_LAB=1 leaves it out (the totals then say so).
# While the lab tests run, the kind tier's binaries and images build in the background at the
# lowest CPU priority (nice 19): on a cold machine that is half an hour of Go builds, which then
# take only the CPU the lab tests leave idle; warm, it is a few seconds of cache checks.
if [ "${IKO_SKIP_LAB:-0}" = 1 ]; then
  echo "== lab tests left out (IKO_SKIP_LAB=1)"
else
  if check "lab build (testbed/lab/build.sh)" bash testbed/lab/build.sh; then
    if [ "$kind_state" = up ]; then
      echo "== $KIND_BUILD_NAME: started in the background (log printed after the lab tests)"
      setsid nice -n 19 bash -c "start=\$SECONDS; $KIND_BUILD; rc=\$?; echo \"kind build: \$((SECONDS - start)) s, exit \$rc\"; exit \$rc" \
        >"$kind_build_log" 2>&1 &
      kind_build_pid=$!
    fi
    lab_started=1
    if check "lab up" npm run --silent lab:up; then
      tier lab test:lab
    fi
    check "lab down" npm run --silent lab:down
    lab_started=0
  fi
fi

# The kind tier: the tier's binaries and images (testbed/kind-tier/build.sh, cached outside the repo),
# Cilium's and Karmada's images (from their Go modules), the registry mirror with the stand-in,
# Karmada and Cilium images, the kind tests; then the mirror, and an engine this run started, are
# stopped whatever happened. It needs the lab's Pulumi CLI and plugins (testbed/lab/build.sh, cached).
if [ "$kind_state" = up ]; then
  if [ -n "$kind_build_pid" ]; then
    echo "== $KIND_BUILD_NAME (ran in the background)"
    wait "$kind_build_pid"; rc=$?; kind_build_pid=""
    cat "$kind_build_log"
    if [ "$rc" -eq 0 ]; then passed=$((passed + 1)); build_ok=1; else echo "FAILED: kind build"; failed=$((failed + 1)); build_ok=0; fi
  else
    build_ok=0; check "$KIND_BUILD_NAME" bash -c "$KIND_BUILD" && build_ok=1
  fi
  if [ "$build_ok" = 1 ] && check "kind mirror up, stand-in, Karmada and Cilium images pushed" \
      bash -c 'bash testbed/kind-tier/registry.sh up && bash testbed/kind-tier/registry.sh push $(bash testbed/kind-tier/standins.sh images) $(bash testbed/kind-tier/cilium-images.sh images) && bash testbed/kind-tier/karmada-images.sh push'; then
    tier kind test:kind
  fi
  check "kind mirror down" bash testbed/kind-tier/registry.sh down
  check "kind engine down" bash testbed/kind-tier/engine.sh down
  kind_state=down
fi

if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
