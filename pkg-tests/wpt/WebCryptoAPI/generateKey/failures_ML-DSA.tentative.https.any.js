// META: title=WebCryptoAPI: generateKey() for Failures
// META: timeout=long
// META: script=../util/helpers.js
// META: script=failures.js
run_test(["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]);
