#!/usr/bin/env bash
# `npm test`: every test tier that exists, then one totals line: "N passed, N failed[, N skipped]".
# Static checks (TypeScript strict, ESLint) run first and count as one failure each if they fail.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0; failed=0; skipped=0
totals=$(mktemp); trap 'rm -f "$totals"' EXIT

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
check "lint (eslint)" npx --no-install eslint .
tier unit test:unit

# The lab tier: build the lab's binaries (cached outside the repo), start the lab, run the lab
# tests, stop the lab whatever happened. IKO_SKIP_LAB=1 leaves it out (the totals then say so).
if [ "${IKO_SKIP_LAB:-0}" = 1 ]; then
  echo "== lab tests left out (IKO_SKIP_LAB=1)"
else
  if check "lab build (lab/build.sh)" bash lab/build.sh; then
    trap 'npm run --silent lab:down >/dev/null 2>&1; rm -f "$totals"' EXIT
    if check "lab up" npm run --silent lab:up; then
      tier lab test:lab
    fi
    check "lab down" npm run --silent lab:down
    trap 'rm -f "$totals"' EXIT
  fi
fi

# The kind tier: a Docker engine (kind-tier/engine.sh: the one `docker info` finds, or Debian's
# docker.io started for this run), the tier's binaries and images (kind-tier/build.sh, cached
# outside the repo), Cilium's images (kind-tier/cilium-images.sh, from its Go module), the registry
# mirror with the stand-in and Cilium images, the kind tests; then the mirror,
# and an engine this run started, are stopped whatever happened. It needs the lab's Pulumi CLI and
# plugins (lab/build.sh, cached). IKO_SKIP_KIND=1 leaves it out; so does a machine where no Docker
# engine can be had (engine.sh exits 3 and says why).
if [ "${IKO_SKIP_KIND:-0}" = 1 ]; then
  echo "== kind tests left out (IKO_SKIP_KIND=1)"
else
  echo "== kind engine (kind-tier/engine.sh up)"
  engine_log=$(mktemp)
  bash kind-tier/engine.sh up 2>&1 | tee "$engine_log"; rc=${PIPESTATUS[0]}
  if [ "$rc" -eq 3 ]; then
    echo "== kind tests left out: $(tail -n 1 "$engine_log" | sed 's/^engine.sh: //')"
  elif [ "$rc" -ne 0 ]; then
    echo "FAILED: kind engine"; failed=$((failed + 1))
  else
    passed=$((passed + 1))
    trap 'bash kind-tier/registry.sh down >/dev/null 2>&1; bash kind-tier/engine.sh down >/dev/null 2>&1; rm -f "$totals"' EXIT
    if check "kind build (the lab's Pulumi CLI and plugins, kind-tier/build.sh, the stand-in images, Karmada's chart and images, Cilium's images)" \
        bash -c 'bash lab/build.sh pulumi pulumi-language-nodejs pulumi-resource-kubernetes kubectl && bash kind-tier/build.sh && bash kind-tier/standins.sh build && bash kind-tier/karmada-images.sh build && bash kind-tier/cilium-images.sh build' \
      && check "kind mirror up, stand-in, Karmada and Cilium images pushed" \
        bash -c 'bash kind-tier/registry.sh up && bash kind-tier/registry.sh push $(bash kind-tier/standins.sh images) $(bash kind-tier/cilium-images.sh images) && bash kind-tier/karmada-images.sh push'; then
      tier kind test:kind
    fi
    check "kind mirror down" bash kind-tier/registry.sh down
    check "kind engine down" bash kind-tier/engine.sh down
    trap 'rm -f "$totals"' EXIT
  fi
  rm -f "$engine_log"
fi

if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
