#!/usr/bin/env bash
# scripts/repeat-tests.sh N [--load] [MAJOR...] [-- <ava args>]
#
# Runs the ava suite N times in a row on each Node major given (default: the one on PATH; 20 22
# 24 26 come from npm through scripts/node-matrix.mjs), against the addon already built in the repo
# root (`npm run build` first), and prints one line per run and a tally. For tests that fail by
# chance: timing, memory and ordering under a busy machine.
#
# --load keeps the machine busy meanwhile with a release build of this crate in a loop, in a
# target directory of its own (target/repeat-load; its first build is a full one), as a parallel
# CI job would. Logs: target/repeat-tests/<date>-<pid>/<major>-<run>.log (several invocations can
# run at once). Exit status: 0 when every run passed.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: $0 N [--load] [MAJOR...] [-- <ava args>]" >&2; exit 2; }
[ $# -ge 1 ] && [[ "$1" =~ ^[0-9]+$ ]] || usage
runs=$1
shift
load=0
majors=()
while [ $# -gt 0 ]; do
  case "$1" in
    --load) load=1 ;;
    --) shift; break ;;
    [0-9]*) majors+=("$1") ;;
    *) usage ;;
  esac
  shift
done
[ ${#majors[@]} -gt 0 ] || majors=(current)

logs=target/repeat-tests/$(date +%Y%m%d-%H%M%S)-$$
mkdir -p "$logs"
echo "logs: $logs"
loader=
stop_load() {
  # The loop's process group: the loop, cargo and the compilers under it.
  if [ -n "$loader" ]; then kill -- "-$loader" 2>/dev/null || true; wait "$loader" 2>/dev/null || true; fi
}
trap stop_load EXIT
if [ "$load" = 1 ]; then
  set -m # the loop gets a process group of its own
  (
    while :; do
      touch src/lib.rs
      cargo build --release --quiet --target-dir target/repeat-load >/dev/null 2>&1 || sleep 5
    done
  ) &
  loader=$!
  set +m
  echo "load: cargo build --release in a loop (process group $loader)"
fi

passed=0
failed=0
for major in "${majors[@]}"; do
  for ((i = 1; i <= runs; i++)); do
    log="$logs/$major-$i.log"
    started=$(date +%s)
    if [ "$major" = current ]; then
      cmd=(npx ava "$@")
    else
      cmd=(node scripts/node-matrix.mjs "$major" -- "$@")
    fi
    if "${cmd[@]}" >"$log" 2>&1; then
      result=passed
      passed=$((passed + 1))
    else
      result=FAILED
      failed=$((failed + 1))
    fi
    summary=$(grep -E '[0-9]+ tests? (passed|failed)|known failure|Timed out|uncaught exception' "$log" | tr -s ' ' | paste -sd ';' -)
    echo "Node $major, run $i/$runs: $result in $(($(date +%s) - started)) s ($summary; uptime: $(cut -d' ' -f1-3 /proc/loadavg))"
    if [ "$result" = FAILED ]; then grep -E '✘|Timed out|Uncaught exception|Unhandled rejection' "$log" | sed 's/^/    /' || true; fi
  done
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
