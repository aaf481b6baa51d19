#!/usr/bin/env bash
# Install Debian's Chromium (if missing) for the web page tests (tests/test_web_page.py).
# Playwright drives this system browser; its own browser download is never used.
set -euo pipefail

if command -v chromium >/dev/null 2>&1; then
  exit 0
fi
echo "installing Chromium from Debian packages" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >&2
apt-get install -y -qq chromium >&2
