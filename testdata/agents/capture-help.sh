#!/bin/sh
# Capture an agent CLI's help into help/<cli>-<version>[-<subcommand>].txt the
# way kittymux probes it: stdin from /dev/null, a temporary cwd, a scratch
# HOME, a timeout, no colour. Usage:
#   capture-help.sh NAME NPM_PACKAGE_DIR BIN [SUBCOMMAND WORDS...]
# e.g. capture-help.sh codex ~/.cache/kittymux-agents/codex/node_modules/@openai/codex \
#        ~/.cache/kittymux-agents/codex/node_modules/.bin/codex resume
set -eu
name=$1 pkgdir=$2 bin=$3
shift 3
here=$(cd "$(dirname "$0")" && pwd)
version=$(node -p "require('$pkgdir/package.json').version")
suffix=""
for w in "$@"; do suffix="$suffix-$w"; done
out="$here/help/$name-$version$suffix.txt"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/home" "$scratch/cwd"
# stdout only: stderr carries warnings about the scratch HOME. A CLI that
# prints its help on stderr alone gets it from there.
(cd "$scratch/cwd" && env -i PATH="$(dirname "$bin"):/usr/local/bin:/usr/bin:/bin" HOME="$scratch/home" \
	TERM=dumb NO_COLOR=1 COLUMNS=100 timeout 60 "$bin" "$@" --help </dev/null >"$scratch/out" 2>"$scratch/err") || true
if [ ! -s "$scratch/out" ]; then cp "$scratch/err" "$scratch/out"; fi
cp "$scratch/out" "$out"
echo "$out"
