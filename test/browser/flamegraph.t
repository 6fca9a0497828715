#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The interactive flame graph in a real browser: Debian's headless
# Chromium, driven by playwright-core (npm, pinned, installed into
# $BUILD/npm once), opens SVGs written by the xenprofile CLI (built here
# from the repository's sources alone, no Xen tree) and
# test/browser/flamegraph-check.js checks what they show: the frames and
# their counts against the folded stacks, a screenshot, search, zoom,
# Reset Zoom, keys and the details line on hover.  Two graphs: the
# Xen-like fixture test/browser/xen-profile.folded, and the demo's profile
# ($XENPROF_DEMO_DATA, default $BUILD/xen-4.17-x86_64/demo/results/xenprofile.data) when
# it exists.  Screenshots, SVGs and logs go to $BUILD/tests/browser.
top=$(cd "$(dirname "$0")/../.." && pwd)
: "${BUILD:=$top/build}"
. "$top/test/lib/tap.sh"
. "$top/test/lib/npm.sh"
PLAYWRIGHT=playwright-core@1.65.1
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
here=$top/test/browser
fixture=$here/xen-profile.folded
demo=${XENPROF_DEMO_DATA:-$BUILD/xen-4.17-x86_64/demo/results/xenprofile.data}

mkdir -p "$BUILD/tests/browser" "$BUILD/npm" &&
    out=$(cd "$BUILD/tests/browser" && pwd) &&
    npmdir=$(cd "$BUILD/npm" && pwd) ||
    { echo "Bail out! cannot create $BUILD/tests/browser"; exit 1; }

if [ ! -x "$CHROMIUM" ]; then
    echo "Bail out! chromium not installed (make deps installs it)"
    exit 1
fi
npm_need "$PLAYWRIGHT" "$npmdir" "$out/npm.log"

cli=$out/xenprofile
ok_cli=1
cc -std=gnu99 -O2 -D_GNU_SOURCE -I"$top/tools/include" \
    "$top"/tools/libs/profile/*.c "$top/tools/misc/xenprofile.c" \
    -o "$cli" > "$out/build.log" 2>&1 || ok_cli=0

# browser NAME SVG FOLDED [--search T ...]: run the Node checks on SVG,
# their TAP lines renumbered into ours, prefixed with NAME.
browser() {
    local name=$1 svg=$2 folded=$3 rc fails=$tap_fails line
    shift 3
    rm -rf "$out/chromium-$name"
    mkdir -p "$out/chromium-$name"
    USER_DATA_DIR=$out/chromium-$name CHROMIUM=$CHROMIUM \
        timeout 120 node "$here/flamegraph-check.js" \
        "$npmdir/node_modules" "$svg" "$folded" "$out/$name" "$@" \
        > "$out/$name.tap" 2> "$out/$name.err"
    rc=$?
    rm -rf "$out/chromium-$name"
    while IFS= read -r line; do
        case $line in
        "ok - "*) ok "$name: ${line#ok - }" ;;
        "not ok - "*) nok "$name: ${line#not ok - }" ;;
        "#"*) echo "$line" ;;
        *) echo "# $line" ;;
        esac
    done < "$out/$name.tap"
    if [ $rc -ne 0 ] && [ "$tap_fails" -eq "$fails" ]; then
        nok "$name: the browser check exited with status $rc"
    fi
    [ $rc -ne 0 ] && tail -n 20 "$out/$name.err" | sed 's/^/# /'
}

if [ $ok_cli = 1 ]; then
    ok "xenprofile CLI built from the sources alone"
else
    nok "xenprofile CLI built from the sources alone (log: $out/build.log)"
    tail -n 20 "$out/build.log" | sed 's/^/# /'
fi

# The fixture: a Xen-like profile with guest frames and markers.
if [ $ok_cli = 1 ] &&
   "$cli" -i "$fixture" --svg "$out/fixture.svg" --title "Xen test profile" \
   > "$out/fixture.log" 2>&1; then
    ok "flame graph of the fixture: $out/fixture.svg"
    browser fixture "$out/fixture.svg" "$fixture" --search evtchn_send \
        --nested '^evtchn_' --zoom do_sysctl \
        --zoom-search copy_to_guest_ll --hover 'd1v0 domu'
else
    nok "flame graph of the fixture (log: $out/fixture.log)"
    [ -f "$out/fixture.log" ] && sed 's/^/# /' "$out/fixture.log"
fi

# The demo's profile, all frames drawn (minwidth almost 0) so that they
# match its folded stacks; the targets are chosen from them.
if [ ! -f "$demo" ]; then
    skip "flame graph of the demo profile" "no $demo (make demo makes it)"
elif [ $ok_cli = 1 ] &&
     "$cli" -i "$demo" --folded "$out/demo.folded" > "$out/demo.log" 2>&1 &&
     "$cli" -i "$demo" --svg "$out/demo.svg" --minwidth 0.000001 \
     --title "Xen demo profile" >> "$out/demo.log" 2>&1; then
    ok "flame graph of the demo profile: $out/demo.svg"
    browser demo "$out/demo.svg" "$out/demo.folded"
else
    nok "flame graph of the demo profile (log: $out/demo.log)"
    [ -f "$out/demo.log" ] && sed 's/^/# /' "$out/demo.log"
fi

plan "$tap_n"
finish
