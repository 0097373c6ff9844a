#!/usr/bin/env bash
# npm run test:mutation: Stryker over components/, stacks/, policy/ and preview/ (testbed/mutation/stryker.config.json),
# then the per-folder scores. Extra arguments go to `stryker run` (e.g. --mutate 'preview/**/*.ts').
#
# A whole run takes hours on a 2-core machine, so runs of a few files each add up: every finished
# run's record (per file: the source's hash, the count of each status, the survivors) is kept under
# ${IKO_MUTATION_KEEP:-testbed/mutation/records}, in the repo, so it counts on the next machine once committed;
# testbed/mutation/mutation-scores.js scores each file by its newest record while the file is unchanged, and
# says which files are not measured yet.
#
# Mutants run the real code, and a mutated clean-up path can remove more than it should (one once
# removed the whole of /tmp). So the run gets its own temp folder two levels under .stryker-tmp/:
# the tests' temp files go there, and a mutant that removes a temp folder's parent removes only
# .stryker-tmp/os-tmp. Docker, kind and the lab are never needed by the unit tests Stryker runs.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp="$PWD/.stryker-tmp/os-tmp/run"
keep=${IKO_MUTATION_KEEP:-testbed/mutation/records}
mkdir -p "$tmp" "$keep"
trap 'rm -rf "$PWD/.stryker-tmp/os-tmp"' EXIT
rm -f reports/mutation/mutation.json
TMPDIR="$tmp" npx stryker run testbed/mutation/stryker.config.json "$@"
commit=$(git rev-parse --short HEAD)
node testbed/mutation/mutation-scores.js --keep reports/mutation/mutation.json "$keep/$(date -u +%Y%m%dT%H%M%SZ)-$commit.json" "$commit"
node testbed/mutation/mutation-scores.js
