/work/main/unpack/target/release/deps/mldsa_simd_unpack.d: src/lib.rs

/work/main/unpack/target/release/deps/libmldsa_simd_unpack.so: src/lib.rs

/work/main/unpack/target/release/deps/libmldsa_simd_unpack.rlib: src/lib.rs

src/lib.rs:
