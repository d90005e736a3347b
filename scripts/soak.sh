#!/usr/bin/env bash
# `npm run soak [-- OPS]`: the long soak, pkg-tests/soak.test.mjs with
# 10^6 mixed operations (or OPS) against the package that `npm test` installed into
# pkg-tests/.consumer, at nice 10. Prints the wasm memory / RSS table as it ends.
# Environment: MLDSA_SOAK_OPS, MLDSA_SOAK_SAMPLES (rows, default 40 here),
# MLDSA_SOAK_RSS_MIB, MLDSA_SOAK_HOSTILE=0 (no hostile calls), MLDSA_TEST_SEED.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export MLDSA_CONSUMER_DIR="${MLDSA_CONSUMER_DIR:-$ROOT/pkg-tests/.consumer}"
export MLDSA_SOAK_OPS="${1:-${MLDSA_SOAK_OPS:-1000000}}"
export MLDSA_SOAK_SAMPLES="${MLDSA_SOAK_SAMPLES:-40}"
export MLDSA_SOAK_PRINT=1
if [ ! -f "$MLDSA_CONSUMER_DIR/node_modules/mldsa-simd/package.json" ]; then
  echo "soak: mldsa-simd is not installed in $MLDSA_CONSUMER_DIR; run npm test first (it builds, packs and installs it)" >&2
  exit 1
fi
echo "soak: $MLDSA_SOAK_OPS operations, package from $MLDSA_CONSUMER_DIR"
exec nice -n 10 node --test --test-reporter=spec pkg-tests/soak.test.mjs
