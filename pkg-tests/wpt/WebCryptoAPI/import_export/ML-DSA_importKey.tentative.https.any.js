// META: title=WebCryptoAPI: importKey() for ML-DSA keys
// META: timeout=long
// META: script=../util/helpers.js
// META: script=ML-DSA_importKey_fixtures.js
// META: script=ml_importKey.js

runTests("ML-DSA-44");
runTests("ML-DSA-65");
runTests("ML-DSA-87");
