/work/main/unpack/target/release/deps/mldsa_simd_unpack-0f89ebeb59a92913.d: src/lib.rs src/tests.rs src/../tests/phrases.lzma

/work/main/unpack/target/release/deps/mldsa_simd_unpack-0f89ebeb59a92913: src/lib.rs src/tests.rs src/../tests/phrases.lzma

src/lib.rs:
src/tests.rs:
src/../tests/phrases.lzma:
