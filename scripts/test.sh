#!/usr/bin/env bash
# `npm test`: every test tier that exists, then one totals line: "N passed, N failed[, N skipped]".
# Static checks (TypeScript strict, ESLint) run first and count as one failure each if they fail.
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0; failed=0; skipped=0
totals=$(mktemp); trap 'rm -f "$totals"' EXIT

check() { # name command...
  local name=$1; shift
  echo "== $name"
  if "$@"; then passed=$((passed + 1)); else echo "FAILED: $name"; failed=$((failed + 1)); fi
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

if [ "$skipped" -gt 0 ]; then
  echo "$passed passed, $failed failed, $skipped skipped"
else
  echo "$passed passed, $failed failed"
fi
[ "$failed" -eq 0 ]
