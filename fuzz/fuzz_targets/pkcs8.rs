//! PKCS#8 private keys (RFC 9881: seed, expandedKey, both) through
//! PrivateKey::from_pkcs8 (mode 0), and keys from a fuzz-chosen seed encoded
//! in each form, decoded back and with one byte changed (mode 1).
//!
//! Mode 0, input: header ‖ DER (the header's set is unused). On every input:
//! parse_pkcs8 (the structure alone) accepts exactly the inputs with one of the
//! nine DER layouts of the harness's own writer (set × form) and reads the
//! layout's set, form, seed and expanded key. With the header's second bit,
//! also the key checks, which cost a keygen: from_pkcs8 accepts exactly the
//! inputs in a layout whose key holds together; when it accepts, the set,
//! form, seed and expanded key are the input's, to_pkcs8 in the key's form
//! gives back the input bytes (DER has one encoding) and in the other forms
//! the harness's encoding, the secret and public keys have the set's lengths,
//! and the key is KeyGen_internal's of its seed (and public_key(sk) its public
//! key) or, without a seed, public_key(sk) is its public key. When it refuses,
//! the error is Error::Format (every length is checked before anything that
//! could say Error::Length), and an input with the right layout has a key that
//! does not hold together (an expanded key that public_key refuses, or a seed
//! whose KeyGen gives another expanded key; a seed alone always holds).
//!
//! Both costly parts (mode 1, and mode 0's key checks) run on the inputs that
//! ask for them (the header's top and second bits) and whose hash picks them
//! (`sampled`, 1 in 8), so that the parser gets most of the executions; the
//! other inputs are read as mode 0 without the key checks.
//!
//! Mode 1, input: header ‖ ξ (32) ‖ three times position (2) ‖ mask (1).
//! PrivateKey::from_seed(ξ) is written in each form (= the harness's
//! encoding) and must decode to the same key and form; then the byte at the
//! position (mod the length) is xored with the mask (0 taken as 1). That must
//! be refused, except: in the seed form, a change inside the seed (another
//! key, of the changed seed) or of the OID's last arc to another of 17, 18,
//! 19 (the same seed, another set: the seed form has one length for all
//! three); in the expandedKey form, a change inside K (bytes 32..64 of the
//! expanded key), which no check covers (the same public key). In `both`,
//! every change is refused: the seed gives the whole expanded key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa_simd::{keygen_internal, parse_pkcs8, public_key, Error, Pkcs8Key, PrivateKey, PrivateKeyForm};
use mldsa_simd_fuzz::{header, oid_arc, pkcs8_match, pkcs8_write, sampled, table, Input, FORMS, SETS};

fuzz_target!(|data: &[u8]| {
    let mut inp = Input(data);
    let (ps, derived, more) = header(inp.byte());
    // Mode 1 and the key checks cost keygens (100 times the parsing): 1 in 8
    // of the inputs that ask for them run them; the others are parsed only.
    let costly = sampled(data, 8);
    let (derived, more) = (derived && costly, more && costly);
    if derived {
        let xi: [u8; 32] = inp.array();
        let key = PrivateKey::from_seed(ps, &xi).unwrap();
        assert_eq!((key.param_set, key.form), (ps, PrivateKeyForm::Seed));
        assert_eq!(key.seed.as_deref(), Some(&xi));
        for form in FORMS {
            let der = key.to_pkcs8(form).unwrap();
            assert!(der[..] == pkcs8_write(ps, form, &xi, &key.secret_key)[..], "{form:?}: not the harness's DER");
            let back = PrivateKey::from_pkcs8(&der).unwrap();
            assert_eq!((back.param_set, back.form), (ps, form));
            assert!(back.secret_key == key.secret_key && back.public_key == key.public_key, "{form:?}: another key");
            assert_eq!(back.seed.is_some(), form != PrivateKeyForm::ExpandedKey);
            if let Some(seed) = &back.seed {
                assert_eq!(seed[..], xi);
            }
            let r = pkcs8_match(&der).unwrap();
            let at = usize::from(inp.u16()) % der.len();
            let mask = inp.byte().max(1);
            let mut bad = der.to_vec();
            bad[at] ^= mask;
            let got = PrivateKey::from_pkcs8(&bad);
            let in_seed = r.seed.is_some() && (r.seed_at..r.seed_at + 32).contains(&at);
            let new_arc = SETS.into_iter().find(|&s| at == r.arc_at && oid_arc(s) == bad[at]);
            match form {
                PrivateKeyForm::Seed if in_seed || new_arc.is_some() => {
                    let k = got.unwrap_or_else(|e| panic!("seed form, byte {at} ^ {mask:#04x}: refused ({e:?})"));
                    assert_eq!((k.param_set, k.form), (new_arc.unwrap_or(ps), form));
                    assert_eq!(k.seed.as_deref().map(|s| &s[..]), Some(&bad[r.seed_at..r.seed_at + 32]));
                    assert!(k.to_pkcs8(form).unwrap()[..] == bad[..]);
                    assert!(k.public_key != key.public_key, "another seed or set, the same public key");
                }
                PrivateKeyForm::ExpandedKey if (r.sk_at + 32..r.sk_at + 64).contains(&at) => {
                    let k = got.unwrap_or_else(|e| {
                        panic!("expandedKey form, byte {at} (in K) ^ {mask:#04x}: refused ({e:?})")
                    });
                    assert_eq!((k.param_set, k.form, k.seed.is_none()), (ps, form, true));
                    assert!(k.secret_key[..] == bad[r.sk_at..], "not the changed expanded key");
                    assert!(k.public_key == key.public_key, "K changed the public key");
                }
                _ => match got {
                    Err(Error::Format(_)) => {}
                    Err(e) => panic!("{form:?}, byte {at} ^ {mask:#04x}: refused with {e:?}, not Error::Format"),
                    Ok(_) => panic!("{form:?}, byte {at} ^ {mask:#04x}: accepted"),
                },
            }
        }
        return;
    }
    let der = inp.rest();
    let want = pkcs8_match(der);
    // The parser alone, on every input: it accepts exactly the nine layouts and reads their parts.
    match (parse_pkcs8(der), &want) {
        (Ok((ps, got)), Some(r)) => {
            assert_eq!(ps, r.ps);
            let parts = match got {
                Pkcs8Key::Seed(seed) => (PrivateKeyForm::Seed, Some(seed), None),
                Pkcs8Key::ExpandedKey(sk) => (PrivateKeyForm::ExpandedKey, None, Some(sk)),
                Pkcs8Key::Both { seed, expanded } => (PrivateKeyForm::Both, Some(seed), Some(expanded)),
            };
            assert_eq!(parts, (r.form, r.seed, r.sk), "parse_pkcs8 read other parts than the layout has");
        }
        (Err(e), None) => assert!(matches!(e, Error::Format(_)), "parse_pkcs8 refused with {e:?}, not Error::Format"),
        (Ok(_), None) => panic!("parse_pkcs8 accepted a key in none of the nine layouts"),
        (Err(e), Some(_)) => panic!("parse_pkcs8 refused one of the nine layouts ({e:?})"),
    }
    // The checks of the key itself cost a keygen: only with the second header bit.
    if !more {
        return;
    }
    let key = match PrivateKey::from_pkcs8(der) {
        Ok(key) => key,
        Err(e) => {
            assert!(matches!(e, Error::Format(_)), "refused with {e:?}, not Error::Format");
            if let Some(r) = want {
                match r.form {
                    PrivateKeyForm::Seed => panic!("refused a seed in the right layout ({e:?})"),
                    PrivateKeyForm::ExpandedKey => {
                        assert!(public_key(r.ps, r.sk.unwrap()).is_err(), "refused an expanded key that holds together")
                    }
                    PrivateKeyForm::Both => {
                        let (_, sk) = keygen_internal(r.ps, r.seed.unwrap()).unwrap();
                        assert!(sk[..] != *r.sk.unwrap(), "refused a seed and expanded key that belong together");
                    }
                }
            }
            return;
        }
    };
    let r = want.expect("accepted a key in none of the nine layouts");
    let ps = r.ps;
    let t = table(ps);
    assert_eq!((key.param_set, key.form), (ps, r.form));
    assert!(key.to_pkcs8(key.form).unwrap()[..] == *der, "to_pkcs8 is not the input");
    assert_eq!((key.secret_key.len(), key.public_key.len()), (t.sk_bytes, t.pk_bytes));
    assert_eq!(key.seed.as_deref().map(|s| &s[..]), r.seed);
    if let Some(sk) = r.sk {
        assert!(key.secret_key[..] == *sk, "not the input's expanded key");
    }
    match &key.seed {
        Some(seed) => {
            let (pk, sk) = keygen_internal(ps, &seed[..]).unwrap();
            assert!(pk == key.public_key && sk[..] == key.secret_key[..], "not KeyGen_internal's key of its seed");
            assert_eq!(public_key(ps, &key.secret_key).unwrap(), key.public_key);
            for form in FORMS {
                assert!(key.to_pkcs8(form).unwrap()[..] == pkcs8_write(ps, form, &seed[..], &sk)[..], "{form:?}");
            }
        }
        None => {
            assert_eq!(public_key(ps, &key.secret_key).unwrap(), key.public_key);
            for form in [PrivateKeyForm::Seed, PrivateKeyForm::Both] {
                assert!(matches!(key.to_pkcs8(form), Err(Error::Format(_))), "{form:?} without a seed");
            }
        }
    }
});
