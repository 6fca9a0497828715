# SPDX-License-Identifier: GPL-2.0-only
# Helpers of the TAP tests that run Node.js programs (after tap.sh).
#   fail DESC [LOG]   the one check of a test that cannot run, and its log
#   npm_need PKG@VER DIR LOG
#                     node and npm present, and PKG at exactly VER
#                     installed under DIR (npm's output in LOG), or fail
fail() {
    plan 1
    nok "$1"
    [ -f "${2:-}" ] && tail -n 30 "$2" | sed 's/^/# /'
    exit 1
}

npm_need() {
    command -v node > /dev/null && command -v npm > /dev/null ||
        fail "node and npm are needed (Debian: apt-get install nodejs npm)"
    grep -q "\"version\": \"${1##*@}\"" \
        "$2/node_modules/${1%@*}/package.json" 2> /dev/null && return 0
    npm install --prefix "$2" --no-audit --no-fund --save-exact "$1" \
        > "$3" 2>&1 || fail "npm install $1 (log: $3)" "$3"
}
