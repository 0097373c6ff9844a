#!/usr/bin/env bash
# npm run test:mutation: Stryker over components/, stacks/, policy/ and preview/ (stryker.config.json),
# then the per-folder scores. Extra arguments go to `stryker run` (e.g. --mutate 'preview/**/*.ts').
#
# Mutants run the real code, and a mutated clean-up path can remove more than it should (one once
# removed the whole of /tmp). So the run gets its own temp folder two levels under .stryker-tmp/:
# the tests' temp files go there, and a mutant that removes a temp folder's parent removes only
# .stryker-tmp/os-tmp. Docker, kind and the lab are never needed by the unit tests Stryker runs.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp="$PWD/.stryker-tmp/os-tmp/run"
mkdir -p "$tmp"
trap 'rm -rf "$PWD/.stryker-tmp/os-tmp"' EXIT
TMPDIR="$tmp" npx stryker run "$@"
node scripts/mutation-scores.js
