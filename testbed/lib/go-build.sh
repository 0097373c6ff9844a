# shellcheck shell=bash
# Helpers shared by testbed/lab/build.sh and testbed/kind-tier/build.sh, which build pinned Go tools modules into
# a cache keyed by version. Source it: it sets the Go build environment and defines functions.

export CGO_ENABLED=0
# -mod=mod: let go resolve/record modules itself; -buildvcs=false: the tools modules live in
# this repo, and VCS stamping would fail on a repo without commits and is meaningless here.
export GOFLAGS="-mod=mod -buildvcs=false"
# Use the installed Go; never fetch another toolchain behind our back.
export GOTOOLCHAIN=${GOTOOLCHAIN:-local}

# mod_version GO_MOD MODULE: the version MODULE is required at in GO_MOD ("=vX" is that literal
# version, for our own modules that have none to require).
mod_version() {
  local v
  [[ $2 == =* ]] && { echo "${2#=}"; return 0; }
  v=$(awk -v m="$2" '
    $1 == "require" && $2 == m { print $3; exit }
    $1 == m && $2 ~ /^v[0-9]/   { print $2; exit }' "$1")
  [[ -n $v ]] || { echo "build.sh: $2 is not required in $1" >&2; return 1; }
  echo "$v"
}

# expand_flags TEMPLATE VERSION: ldflags placeholders {v} (v1.2.3), {v#} (1.2.3), {major}, {minor}.
expand_flags() {
  local f=$1 v=$2 bare=${2#v} major minor
  major=${bare%%.*}
  minor=${bare#*.}; minor=${minor%%.*}
  f=${f//\{v\}/$v}; f=${f//\{v#\}/$bare}; f=${f//\{major\}/$major}; f=${f//\{minor\}/$minor}
  echo "$f"
}

# target_field SPEC INDEX: field INDEX of a "a|b|c" target spec (read -a drops a trailing empty
# field, hence the default).
target_field() { local IFS='|'; local -a f; read -r -a f <<<"$1"; echo "${f[$2]-}"; }
