#!/usr/bin/env bash
# Constant-time check of KeyGen, Sign and the private-key formats ("ctgrind"):
# builds examples/ctgrind.rs natively (the portable code; simd128 is wasm-only)
# with --features ct-testing and runs it under valgrind memcheck, where the
# secrets it marks (ξ; K, s1, s2, t0 of the secret key; rnd; the seed and K,
# s1, s2, t0 inside PKCS#8 DER, the base64 characters that carry them in PEM,
# a JWK's priv) are undefined memory. Any branch or memory index that depends
# on them, beyond the declassifications in the code (src/base/ct.rs; docs/assurance.md,
# "Constant-time checks"), is a memcheck error and fails the run.
#
#   bash scripts/ct.sh            ML-DSA-44/65/87, 2 keys and 12 messages each, plus
#                                 104 signatures with extreme-t0 keys
#   bash scripts/ct.sh --quick    1 key and 4 messages each, 42 extreme-t0 signatures
#                                 (what npm test runs)
#   bash scripts/ct.sh --origins  also --track-origins=yes (slower; says where a
#                                 reported secret came from)
#
# Both sizes then decode and encode again, for each set, PKCS#8 DER in the
# seed, expandedKey and both forms (from_pkcs8, to_pkcs8), its PEM in 7 layouts
# (LF, CR LF, no final line break, LF and CR LF mixed; and RFC 7468's lax ones:
# 76 columns with CR LF and text around the armour, one line, tabs and spaces)
# and a JWK's priv (base64url); that part takes well under a second under
# valgrind.
#
# First it runs two canaries that branch and index on a secret on purpose and
# checks that memcheck reports each: without that, a build in which the marks
# did nothing would pass. x86_64 Linux only (the client requests in src/base/ct.rs).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

mode="" vg_extra=()
for arg in "$@"; do
  case "$arg" in
    --quick) mode="--quick" ;;
    --origins) vg_extra+=(--track-origins=yes) ;;
    *) echo "ct.sh: unknown argument: $arg" >&2; exit 2 ;;
  esac
done

command -v valgrind >/dev/null || { echo "ct.sh: valgrind not found (bash scripts/setup.sh installs it)" >&2; exit 1; }
[ "$(uname -m)" = x86_64 ] && [ "$(uname -s)" = Linux ] || { echo "ct.sh: needs x86_64 Linux" >&2; exit 1; }

# Line tables only, so that memcheck's reports name source lines; the code is
# the release build's. A target dir of its own keeps the feature build apart.
export CARGO_PROFILE_RELEASE_DEBUG=line-tables-only
cargo build --release --features ct-testing --example ctgrind --target-dir target/ct
BIN=target/ct/release/examples/ctgrind
VG=(valgrind --tool=memcheck --error-exitcode=99 --leak-check=no --num-callers=40 "${vg_extra[@]}")

# The canaries: memcheck must report each kind of leak it is meant to catch.
for c in branch:"Conditional jump or move depends on uninitialised value" index:"Use of uninitialised value of size"; do
  kind="${c%%:*}" want="${c#*:}" rc=0
  out="$("${VG[@]}" -q "$BIN" --canary-"$kind" 2>&1)" || rc=$?
  if [ "$rc" != 99 ] || ! grep -q "$want" <<<"$out"; then
    echo "$out"
    echo "ct.sh: FAILED: the $kind canary was not reported (exit $rc): the secret marks do not work" >&2
    exit 1
  fi
  echo "ct.sh: canary ($kind on a secret) reported by memcheck, as it must be"
done

t0=$SECONDS
rc=0
"${VG[@]}" "$BIN" $mode || rc=$?
if [ "$rc" != 0 ]; then
  echo "ct.sh: FAILED (exit $rc): a secret-dependent branch or index (memcheck errors above), or a harness check" >&2
  exit 1
fi
echo "ct.sh: constant-time check passed in $((SECONDS - t0))s (no memcheck errors)"
