# Sourced by scripts/test.sh (the smoke step) and scripts/fuzz-long.sh, so
# that both build and run each target the same way. `fuzz_options <target>`
# prints the cargo fuzz options for that target, to use from fuzz/.
#
# -s none, every target: the crates' only unsafe code is in the wasm32-only
# simd128 kernels and allocator, so natively everything fuzzed is safe Rust,
# whose bounds and overflow checks (on in fuzz/'s profile) find what ASan
# would, at about twice the speed.
#
# --no-trace-compares for the targets that run the arithmetic (verify, sign):
# libFuzzer's comparison tracing also fires on every loop bound in Keccak, the
# NTT and the samplers, which under callgrind was 40% of the instructions of a
# sign-then-verify input and made these targets 3-4 times slower. Their
# branches on the input are range and ordering checks (η, γ1 − β, hint
# indices) that coverage feedback alone reaches; the parsers (pk_decode,
# unpack, and the key formats' pkcs8, spki_pem) keep the tracing, which is how
# libFuzzer learns the tags and magic values they compare against. The two
# kinds build into different target directories so neither rebuilds the other.
fuzz_options() {
  case "$1" in
    verify | sign) echo "-s none --no-trace-compares --target-dir target/no-trace-compares" ;;
    *) echo "-s none" ;;
  esac
}
