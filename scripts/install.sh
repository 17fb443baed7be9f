#!/usr/bin/env bash
# Install BPE Lab into ./.venv.
#   bash scripts/install.sh          runtime packages and the pretrained tokenizers' data files (enough to run the app)
#   bash scripts/install.sh --test   also the test packages, and Debian's Chromium, HAProxy, Redis and fonts for the tests
set -euo pipefail
cd "$(dirname "$0")/.."

with_tests=false
[ "${1:-}" = "--test" ] && with_tests=true

# Debian's Chromium drives the browser tests (Playwright's own download does not work offline);
# Debian's HAProxy fronts the replicas of scripts/serve.sh in tests/test_replicas.py, and its
# redis-server holds their class rooms (the room tests start their own); the Noto fonts
# let the screenshots show what a learner sees instead of empty boxes: CJK, colour emoji, and core
# for the other scripts (Devanagari, Bengali, Tamil, Thai, Arabic, Hebrew, Ethiopic...); poppler-utils'
# pdftoppm turns the printed handout's pages into pictures (tests/test_browser_handout.py).
test_packages=(chromium haproxy redis-server fonts-noto-cjk fonts-noto-color-emoji fonts-noto-core poppler-utils)
if $with_tests && ! dpkg -s "${test_packages[@]}" >/dev/null 2>&1; then
  as_root=""
  [ "$(id -u)" -ne 0 ] && as_root="sudo"
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${test_packages[@]}"
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
if $with_tests; then
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-dev.txt
  # sentencepiece's source release (not installed, only read): its src/unicode_script_map.h is what
  # scripts/generate_sentencepiece_scripts.py reads, and tests/test_sentencepiece_scripts.py checks
  # bpe/text/sentencepiece_scripts.py against it. The version is the one requirements-dev.txt pins.
  sentencepiece_version=$(sed -n 's/^sentencepiece==\([^ ]*\).*/\1/p' requirements-dev.txt)
  [ -f ".venv/sources/sentencepiece-$sentencepiece_version.tar.gz" ] ||
    .venv/bin/python -m pip download -q --disable-pip-version-check --no-deps --no-binary :all: \
      "sentencepiece==$sentencepiece_version" -d .venv/sources
else
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements-runtime.txt -r requirements-data.txt
fi
# Llama's and Mistral's tokenizer files: their packages' own dependencies are not needed to read them
# (requirements-data-nodeps.txt says what they would pull in, and the time it saves).
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -r requirements-data-nodeps.txt
