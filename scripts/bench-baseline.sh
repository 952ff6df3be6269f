#!/usr/bin/env bash
# CI (bench.yml): compares this platform's benchmark JSON with the one attached to the last
# published release (CI.yml's bench-assets job attaches bench-<platform>.json), by
# benchmark/compare.js's rule (exit 2 on a regression). No earlier release with results: says so
# and passes.
#
# Usage: scripts/bench-baseline.sh <platform-name> <this-tag>   (GH_TOKEN, GH_REPO set)
set -euo pipefail
name="$1"
this="${2:-}"
current="bench-$name.json"
[ -f "$current" ] || { echo "no $current: the benchmark did not finish" >&2; exit 1; }
tag="$(gh release list --exclude-drafts --exclude-pre-releases --limit 20 --json tagName --jq '.[].tagName' | grep -vxF -- "$this" | head -n 1 || true)"
if [ -z "$tag" ]; then
  echo "::notice::no earlier release to compare $name with"
  exit 0
fi
dir="$(mktemp -d)"
if ! gh release download "$tag" --pattern "bench-$name.json" --dir "$dir" 2>/dev/null; then
  echo "::notice::release $tag has no bench-$name.json to compare with"
  exit 0
fi
status=0
node benchmark/compare.js "$dir/bench-$name.json" "$current" | tee "compare-$name.txt" || status=${PIPESTATUS[0]}
{ echo "### $name against $tag"; echo '```'; cat "compare-$name.txt"; echo '```'; } >> "${GITHUB_STEP_SUMMARY:-/dev/null}"
if [ "$status" = 2 ]; then echo "::error::$name: benchmark regression against $tag (see the summary)"; fi
exit "$status"
