#!/usr/bin/env bash
# `npm test` (and .ci/run): set up whatever is missing (Chromium included), then run
# every suite, in this order, stopping at the first failure:
#   0. the crate's module graph (scripts/module-graph.mjs --check); Biome: the JavaScript
#      formatted and linted (biome.json; `npm run format` fixes what it can)
#      cargo fmt --check, cargo clippy -D warnings          the Rust style (native and wasm32)
#   1. cargo test --release                                 native: unit tests + Rust ACVP suites
#      (and unpack/'s tests: the decoder that unpacks the embedded .wasm)
#      then cargo fuzz: each target in fuzz/ for a short smoke time from its seed corpus
#   2. cargo test --release --target wasm32-unknown-unknown  the same crate as wasm, in Node
#   3. npm run build                                         the npm package in pkg/
#      (then node --test unpack/*.test.mjs: the built decoder module against LZMA-JS)
#   4. npm pack pkg/ and install the tarball into an empty consumer folder (npm cache first)
#   5. node --test pkg-tests/*.test.mjs                      the installed package, as a user gets it
# Logs of each step go to target/test-logs/. A summary is printed at the end (also on failure).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# RUSTFLAGS would replace the +simd128 flags of .cargo/config.toml: drop it.
for v in RUSTFLAGS CARGO_ENCODED_RUSTFLAGS; do
  if [ -n "${!v+x}" ]; then
    echo "test.sh: warning: ignoring $v='${!v}' (it would replace +simd128 from .cargo/config.toml)" >&2
    unset "$v"
  fi
done

LOGS="$ROOT/target/test-logs"
CONSUMER="$ROOT/pkg-tests/.consumer"
rm -rf "$LOGS"
mkdir -p "$LOGS"
SUMMARY=()
FAILURES=()
T_START=$SECONDS
CURRENT=""

summary() {
  local rc=$?
  echo
  echo "================ test summary ================"
  local line
  for line in "${SUMMARY[@]}"; do echo "$line"; done
  if [ "$rc" = 0 ]; then
    echo "ALL SUITES PASSED in $((SECONDS - T_START))s"
  else
    echo "FAILED during: ${CURRENT:-?} (exit $rc) after $((SECONDS - T_START))s; log: $LOGS"
    for line in "${FAILURES[@]}"; do echo "$line"; done
  fi
  echo "=============================================="
  # One closing line over every suite that ran (cargo native + wasm, node --test).
  local passed=0 failed=0 p f
  for f in "$LOGS/cargo-native.log" "$LOGS/cargo-unpack.log" "$LOGS/cargo-wasm.log"; do
    [ -f "$f" ] || continue
    p=$(grep -hoE 'test result: .*' "$f" | grep -oE '[0-9]+ passed' | awk '{s+=$1} END {print s+0}')
    f=$(grep -hoE 'test result: .*' "$f" | grep -oE '[0-9]+ failed' | awk '{s+=$1} END {print s+0}')
    passed=$((passed + p)); failed=$((failed + f))
  done
  if [ -f "$LOGS/fuzz-smoke.log" ]; then
    p=$(grep -cE '^fuzz [a-z_0-9]+: ok' "$LOGS/fuzz-smoke.log" || true)
    f=$(grep -cE '^fuzz [a-z_0-9]+: FAILED' "$LOGS/fuzz-smoke.log" || true)
    passed=$((passed + p)); failed=$((failed + f))
  fi
  for f in "$LOGS/unpack-tests.log" "$LOGS/pkg-tests.log"; do
    [ -f "$f" ] || continue
    p=$(grep -E '^ℹ pass [0-9]+' "$f" | tail -1 | awk '{print $3}')
    f=$(grep -E '^ℹ fail [0-9]+' "$f" | tail -1 | awk '{print $3}')
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  done
  [ "$rc" = 0 ] || [ "$failed" -gt 0 ] || failed=1
  echo "total: $passed passed, $failed failed"
}
trap summary EXIT

# run NAME LOGFILE CMD...: run a step, tee its output to LOGFILE, record its time and
# status; returns the step's exit status. (The command runs where errexit does not
# apply, so shell functions passed here check each of their commands themselves.)
run() {
  local name="$1" log="$2"; shift 2
  CURRENT="$name"
  echo
  echo "==== $name: $*"
  local t0=$SECONDS rc=0
  "$@" 2>&1 | tee "$log" || rc=$?
  SUMMARY+=("$(printf '%-28s %4ss' "$name" "$((SECONDS - t0))")$([ "$rc" = 0 ] || echo "   FAILED (exit $rc)")")
  # A failure's reason goes under the summary's last lines too, which are what a CI
  # page keeps of a long log.
  [ "$rc" = 0 ] || FAILURES+=("$name:" "$(failure_excerpt "$log")")
  return "$rc"
}

# The first 40 lines of why a step failed, indented: node --test's "failing tests" block
# (each failing test and its error), else cargo's "failures:" block, else the log's last
# 20 lines. awk reads the whole log (a `head` would stop a writer with SIGPIPE).
failure_excerpt() {
  awk -v max=40 '
    { last[NR % 20] = $0 }
    !node && /^✖ failing tests:/ { node = 1; n = 0 }
    !node && !cargo && /^failures:/ { cargo = 1 }
    (node || cargo) && n < max { out[n++] = $0 }
    END {
      if (n) for (i = 0; i < n; i++) print "    | " out[i]
      else for (i = NR - 19; i <= NR; i++) if (i > 0) print "    | " last[i % 20]
    }' "$1"
}

# Per test binary: "<binary>: N passed, N failed, N ignored" from cargo's output
# (native libtest and wasm-bindgen-test-runner both print "test result: ...").
cargo_counts() {
  awk '
    /^ *Running / { name = $2; if ($2 == "unittests") name = "unittests " $3 }
    /^ *Doc-tests / { name = "doc-tests " $2 }
    /^no tests to run!/ { printf "    %-44s     (no tests for this target)\n", name }
    /test result:/ {
      p = f = ig = 0
      if (match($0, /[0-9]+ passed/)) p = substr($0, RSTART, RLENGTH) + 0
      if (match($0, /[0-9]+ failed/)) f = substr($0, RSTART, RLENGTH) + 0
      if (match($0, /[0-9]+ ignored/)) ig = substr($0, RSTART, RLENGTH) + 0
      printf "    %-44s %5d passed %3d failed %3d ignored\n", name, p, f, ig
      tp += p; tf += f; ti += ig
    }
    END {
      printf "    %-44s %5d passed %3d failed %3d ignored\n", "TOTAL", tp, tf, ti
      if (ti > 0) printf "    WARNING: %d ignored tests did not run\n", ti
    }
  ' "$1"
}

# ---------------------------------------------------------------------------- setup
CURRENT="setup"
echo "==== setup"
t0=$SECONDS
# shellcheck source=scripts/setup.sh
source scripts/setup.sh --fuzz --node24 --compat
SUMMARY+=("$(printf '%-28s %4ss' "setup" "$((SECONDS - t0))")")

# ---------------------------------------------------------------------------- 1. native
# The crate's module graph is layered, without cycles (scripts/module-graph.mjs LAYERS).
rc=0
module_graph() { node scripts/module-graph.mjs --self-test && node scripts/module-graph.mjs --check; }
run "module graph" "$LOGS/module-graph.log" module_graph || rc=$?
SUMMARY+=("$(grep -E '^module-graph: (passed|FAILED)' "$LOGS/module-graph.log" | sed 's/^/    /' || true)")
[ "$rc" = 0 ] || exit "$rc"

# The JavaScript is formatted and linted by Biome (biome.json; `npx biome check --write .` fixes
# what it can): one well-kept tool for both, run from the repository's dev dependencies.
run "biome (JS format + lint)" "$LOGS/biome.log" npx --no-install biome check --reporter=summary . || rc=$?
[ "$rc" = 0 ] || exit "$rc"

# The Rust style: rustfmt.toml's format, and clippy with every warning an error, for
# the crate (its tests and examples too) natively and on wasm32, where the simd128
# backend is, and for unpack/ (fuzz/ is formatted; clippy there would need nightly).
rust_fmt() {
  cargo fmt --check &&
    cargo fmt --check --manifest-path unpack/Cargo.toml &&
    cargo fmt --check --manifest-path fuzz/Cargo.toml
}
run "cargo fmt --check" "$LOGS/fmt.log" rust_fmt || rc=$?
[ "$rc" = 0 ] || exit "$rc"
rust_clippy() {
  cargo clippy --all-targets -- -D warnings &&
    cargo clippy --all-targets --target wasm32-unknown-unknown -- -D warnings &&
    cargo clippy --manifest-path unpack/Cargo.toml --all-targets --target-dir target/unpack -- -D warnings
}
run "cargo clippy" "$LOGS/clippy.log" rust_clippy || rc=$?
[ "$rc" = 0 ] || exit "$rc"

# --show-output: the Rust ACVP suites print how many vectors they ran. ACVP_DIR: all of
# NIST's vectors (without it, tests/acvp.rs runs the subset vendored in tests/data/acvp).
run "cargo test (native)" "$LOGS/cargo-native.log" env ACVP_DIR="$ROOT/../shared/vectors/acvp" cargo test --release -- --show-output || rc=$?
SUMMARY+=("$(cargo_counts "$LOGS/cargo-native.log")")
SUMMARY+=("$(grep -E '^ACVP .*vectors' "$LOGS/cargo-native.log" | sed 's/^/    Rust /' || true)")
[ "$rc" = 0 ] || exit "$rc"

# The LZMA decoder that unpacks the embedded .wasm (unpack/, its own crate), in a
# debug build: overflow checks on for its range-coder arithmetic.
run "cargo test (unpack)" "$LOGS/cargo-unpack.log" \
  cargo test --manifest-path unpack/Cargo.toml --target-dir target/unpack || rc=$?
SUMMARY+=("$(cargo_counts "$LOGS/cargo-unpack.log")")
[ "$rc" = 0 ] || exit "$rc"

# ---------------------------------------------------------------------------- constant time
# KeyGen, Sign and the private-key formats (PKCS#8, PEM, JWK priv) of all
# three sets under valgrind memcheck with the secrets marked: a
# secret-dependent branch or index fails (docs/assurance.md, "Constant-time checks"). This is the short version; `bash scripts/ct.sh` is the full one.
run "constant time (valgrind)" "$LOGS/ct.log" bash scripts/ct.sh --quick || rc=$?
SUMMARY+=("$(grep -E '^ctgrind: [0-9]+ signatures|^ct.sh: constant-time' "$LOGS/ct.log" | sed 's/^/    /' || true)")
[ "$rc" = 0 ] || exit "$rc"

# Each cargo fuzz target (fuzz/) for a short time from its seed corpus (new inputs
# go to fuzz/target/smoke-corpus/, not to the committed corpus), built and run
# with the options of fuzz/options.sh (which says why). The long run is
# scripts/fuzz-long.sh. MLDSA_FUZZ_SECONDS (default 10) per target.
source fuzz/options.sh
fuzz_smoke() {
  local secs="${MLDSA_FUZZ_SECONDS:-10}" t trc execs rate
  local targets
  targets="$(cd fuzz && cargo +nightly fuzz list)" || return 1
  [ -n "$targets" ] || { echo "no fuzz targets found" >&2; return 1; }
  for t in $targets; do
    rm -rf "fuzz/target/smoke-corpus/$t" && mkdir -p "fuzz/target/smoke-corpus/$t" || return 1
    trc=0
    # shellcheck disable=SC2046 # the options are words
    (cd fuzz && cargo +nightly fuzz run $(fuzz_options "$t") "$t" "target/smoke-corpus/$t" "corpus/$t" -- \
      -max_total_time="$secs" -timeout=60 -print_final_stats=1) > "$LOGS/fuzz-$t.log" 2>&1 || trc=$?
    execs="$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$LOGS/fuzz-$t.log" | grep -oE '[0-9]+$' || echo 0)"
    rate="$(grep -oE 'stat::average_exec_per_sec: *[0-9]+' "$LOGS/fuzz-$t.log" | grep -oE '[0-9]+$' || echo 0)"
    if [ "$trc" = 0 ] && [ "$execs" -gt 0 ]; then
      echo "fuzz $t: ok, $execs executions in ${secs}s ($rate/s), 0 crashes"
    else
      tail -n 40 "$LOGS/fuzz-$t.log"
      echo "fuzz $t: FAILED (exit $trc, $execs executions; log: $LOGS/fuzz-$t.log, inputs: fuzz/artifacts/$t/)"
      return 1
    fi
  done
}
run "cargo fuzz (smoke)" "$LOGS/fuzz-smoke.log" fuzz_smoke || rc=$?
SUMMARY+=("$(grep -E '^fuzz [a-z_0-9]+: ' "$LOGS/fuzz-smoke.log" | sed 's/^/    /' || true)")
[ "$rc" = 0 ] || exit "$rc"

# ---------------------------------------------------------------------------- 2. wasm
run "cargo test (wasm32, Node)" "$LOGS/cargo-wasm.log" cargo test --release --target wasm32-unknown-unknown || rc=$?
SUMMARY+=("$(cargo_counts "$LOGS/cargo-wasm.log")")
[ "$rc" = 0 ] || exit "$rc"
# The wasm micro-benchmarks (src/testing/bench/, --cfg mldsa_bench) are not run here, but they
# must keep compiling against the kernels they time.
run "cargo check (benchmarks)" "$LOGS/cargo-bench-check.log" env \
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="-C target-feature=+simd128 -C link-arg=-zstack-size=65536 --cfg mldsa_bench" \
  cargo check --release --tests --target wasm32-unknown-unknown --target-dir target/bench-check || rc=$?
[ "$rc" = 0 ] || exit "$rc"

# ---------------------------------------------------------------------------- 3. build
run "npm run build" "$LOGS/build.log" npm run build
for f in package.json index.mjs index.cjs index.d.ts; do
  [ -f "pkg/$f" ] || { echo "test.sh: npm run build did not produce pkg/$f" >&2; exit 1; }
done
# No integer division in the shipped .wasm where keygen and signing reach it.
run "wasm division scan" "$LOGS/div-scan.log" node scripts/wasm-div-scan.mjs || rc=$?
SUMMARY+=("$(grep -E '^wasm-div-scan: (passed|FAILED)' "$LOGS/div-scan.log" | sed 's/^/    /' || true)")
[ "$rc" = 0 ] || exit "$rc"
# The code shapes the NTT's speed in V8 depends on (PERF.md): the build checked the shipped
# .wasm already (build.log); here the check's self-test, so that it is seen to fail on the
# shapes it forbids.
run "wasm tricks check" "$LOGS/tricks-check.log" node scripts/wasm-tricks-check.mjs --self-test || rc=$?
SUMMARY+=("$(grep -hE '^(build: )?wasm-tricks-check: (self-test )?(passed|FAILED)' "$LOGS/build.log" "$LOGS/tricks-check.log" | sed 's/^/    /' || true)")
[ "$rc" = 0 ] || exit "$rc"
# The built LZMA decoder module against LZMA-JS (round trips, damaged streams).
run "node --test unpack" "$LOGS/unpack-tests.log" node --test --test-reporter=spec unpack/*.test.mjs || rc=$?
SUMMARY+=("$(grep -E '^ℹ (tests|pass|fail) ' "$LOGS/unpack-tests.log" | sed 's/^ℹ /    /' | paste -sd' ' || true)")
[ "$rc" = 0 ] || exit "$rc"

# ---------------------------------------------------------------------------- 4. pack + install
pack_and_install() {
  rm -rf "$CONSUMER" && mkdir -p "$CONSUMER" || return 1
  local tarball
  tarball="$(cd pkg && npm pack --json --pack-destination "$CONSUMER" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s)[0].filename))')" || return 1
  [ -n "$tarball" ] && [ -f "$CONSUMER/$tarball" ] || { echo "npm pack produced no tarball" >&2; return 1; }
  echo "packed: $tarball ($(wc -c < "$CONSUMER/$tarball") bytes); contents:"
  tar -tzvf "$CONSUMER/$tarball" || return 1
  printf '{\n  "name": "mldsa-simd-consumer",\n  "version": "0.0.0",\n  "private": true\n}\n' > "$CONSUMER/package.json" || return 1
  # The package has no dependencies: the tarball is installed alone.
  (cd "$CONSUMER" && npm install --prefer-offline --no-audit --no-fund "./$tarball") || return 1
  [ -f "$CONSUMER/node_modules/mldsa-simd/package.json" ] || { echo "mldsa-simd not installed in $CONSUMER" >&2; return 1; }
  echo "installed: mldsa-simd $(node -p "require('$CONSUMER/node_modules/mldsa-simd/package.json').version") in $CONSUMER"
}
run "npm pack + install" "$LOGS/pack.log" pack_and_install

# ---------------------------------------------------------------------------- 5. package tests
# Two test files at a time on two cores; each file is its own process.
run "node --test pkg-tests" "$LOGS/pkg-tests.log" \
  env MLDSA_CONSUMER_DIR="$CONSUMER" node --test --test-concurrency=2 --test-reporter=spec pkg-tests/*.test.mjs || rc=$?
SUMMARY+=("$(grep -E 'ACVP .* vectors|hammer: [0-9]+ calls|browser: ml_dsa|stream-memory: (Node|Chromium)' "$LOGS/pkg-tests.log" | sed -E 's/^[[:space:]]*(ℹ[[:space:]]*)?/    /' | sort -u || true)")
SUMMARY+=("$(grep -E '^ℹ (tests|pass|fail|cancelled|skipped|todo) ' "$LOGS/pkg-tests.log" | sed 's/^ℹ /    /' | paste -sd' ' || true)")
[ "$rc" = 0 ] || exit "$rc"
CURRENT=""
