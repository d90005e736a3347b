#!/usr/bin/env bash
# The long fuzzing run (not part of npm test or CI): each cargo fuzz target in
# fuzz/, one after the other, for 10^7 executions, under nice -n 19.
#
#   bash scripts/fuzz-long.sh [target ...]        # default: every target in fuzz/fuzz_targets
#   FUZZ_RUNS=1000000 bash scripts/fuzz-long.sh verify
#   FUZZ_MAX_TIME=3600 bash scripts/fuzz-long.sh sign   # stop a target after an hour instead
#   FUZZ_INSTANCE=2 FUZZ_RUNS=5000000 bash scripts/fuzz-long.sh sign   # a second process
#
# Processes started on the same target share its corpus directory and pick up
# each other's finds, as the processes of libFuzzer's -jobs do: two of them
# use both cores, and their executions add up. FUZZ_INSTANCE names the log.
#
# Each target starts from its seed corpus fuzz/corpus/<target>/ (read only)
# and keeps what it finds in fuzz/target/long-corpus/<target>/ (not committed;
# `cargo fuzz cmin` it into fuzz/corpus/ to keep new seeds). Logs go to
# fuzz/target/long-logs/<target>.log; a crash stops the run and leaves its
# input in fuzz/artifacts/<target>/ (reproduce: cargo +nightly fuzz run, with
# the target's options from fuzz/options.sh, <target> <file>). The last lines printed are one per target: executions,
# executions per second, seconds, result.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT/fuzz"
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"
bash "$ROOT/scripts/setup.sh" --fuzz-only >/dev/null

RUNS="${FUZZ_RUNS:-10000000}"
MAX_TIME="${FUZZ_MAX_TIME:-0}"
if [ "$#" -gt 0 ]; then targets=("$@"); else targets=($(cargo +nightly fuzz list)); fi
LOGS="$ROOT/fuzz/target/long-logs"
INSTANCE="${FUZZ_INSTANCE:+-$FUZZ_INSTANCE}"
mkdir -p "$LOGS"
# The same options as the smoke step of scripts/test.sh.
source "$ROOT/fuzz/options.sh"
results=()
rc=0
for t in "${targets[@]}"; do
  work="$ROOT/fuzz/target/long-corpus/$t"
  mkdir -p "$work"
  echo "==== $t$INSTANCE: $RUNS runs$([ "$MAX_TIME" = 0 ] || echo ", at most ${MAX_TIME}s") (log: $LOGS/$t$INSTANCE.log)"
  # shellcheck disable=SC2046 # the options are words
  CARGO_BUILD_JOBS=1 nice -n 19 cargo +nightly fuzz build $(fuzz_options "$t") "$t"
  t0=$SECONDS
  trc=0
  # shellcheck disable=SC2046
  nice -n 19 cargo +nightly fuzz run $(fuzz_options "$t") "$t" "$work" "corpus/$t" -- \
    -runs="$RUNS" -max_total_time="$MAX_TIME" -timeout=120 -print_final_stats=1 >"$LOGS/$t$INSTANCE.log" 2>&1 || trc=$?
  secs=$((SECONDS - t0))
  execs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$LOGS/$t$INSTANCE.log" | grep -oE '[0-9]+$' || echo '?')"
  rate="$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$LOGS/$t$INSTANCE.log" | grep -oE '[0-9]+$' || echo '?')"
  if [ "$trc" = 0 ]; then verdict="0 crashes"; else verdict="FAILED (exit $trc): see $LOGS/$t$INSTANCE.log and fuzz/artifacts/$t/"; rc=1; fi
  results+=("$(printf '%-10s %12s execs %8s exec/s %7ss  %s' "$t" "$execs" "$rate" "$secs" "$verdict")")
  echo "${results[-1]}"
  [ "$trc" = 0 ] || break
done
echo
echo "================ fuzz-long summary ($(date -u +%FT%TZ)) ================"
printf '%s\n' "${results[@]}"
exit "$rc"
