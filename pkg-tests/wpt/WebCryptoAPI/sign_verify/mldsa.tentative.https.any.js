// META: title=WebCryptoAPI: sign() and verify() Using ML-DSA
// META: script=../util/helpers.js
// META: script=../util/mldsa_key_fixtures.js
// META: script=mldsa_vectors.js
// META: script=signature.js
// META: script=mldsa.js
// META: timeout=long

run_test();
