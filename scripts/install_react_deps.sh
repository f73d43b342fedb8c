#!/usr/bin/env bash
# Install what the React task needs outside Python: Debian's Chromium (Playwright's own browser
# download does not work here) and the Node toolchain in js/ from the committed lockfile.
# Idempotent: each step is skipped when its result is already there and current.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q chromium
fi

if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "install_react_deps: node and npm (Node >= 20) are required" >&2
  exit 1
fi

# npm ci wipes and reinstalls node_modules; skip it when node_modules was installed from this lockfile.
stamp=js/node_modules/.bot_repro_lock_sha256
want=$(sha256sum js/package-lock.json | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  (cd js && npm ci --no-audit --no-fund)
  echo "$want" > "$stamp"
fi
# esbuild's, TypeScript 7's and Tailwind's (oxide) binaries come from optional (per-platform)
# dependencies: start one check worker (it loads every tool, builds the recharts and framer-motion
# page bundles into node_modules/.bot_repro_cache and checks a sample) so a missing piece fails
# here, not in the first training step.
log=$(mktemp)
if ! (cd js && node check_worker.mjs --once < /dev/null 2>"$log" | grep -q '"ready":true'); then
  echo "install_react_deps: the check worker did not start:" >&2
  cat "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
echo "install_react_deps: $(/usr/bin/chromium --version 2>/dev/null), js toolchain ready"
