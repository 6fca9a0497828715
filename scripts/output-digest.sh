#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# output-digest.sh XENPROFILE DATA...: the sha256 of every analysis output
# of each saved profile (report, JSON, call graph, folded, SVG, pprof,
# script, diff with itself).  Run it before and after a change that must
# not change behaviour: the two listings are identical or it did.
set -euo pipefail
x=$1; shift
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for d in "$@"; do
    run() {
        local what=$1; shift
        "$x" -i "$d" "$@" > "$tmp/out" 2>&1 || echo "exit $?" >> "$tmp/out"
        for f in "$tmp"/f.*; do [ -e "$f" ] && cat "$f" >> "$tmp/out"; done
        rm -f "$tmp"/f.*
        printf '%s  %s %s\n' "$(sha256sum < "$tmp/out" | cut -c1-16)" \
            "$(basename "$d")" "$what"
    }
    run report
    run report-self --sort self --top 0
    run by-cpu --by cpu
    run by-domain --by domain --domain 0
    run callgraph --callgraph --top 10
    run json --json
    run folded --folded "$tmp/f.folded"
    run svg --svg "$tmp/f.svg" --title t
    run svg-inverted --svg "$tmp/f.svg" --inverted --width 800
    run pprof --pprof "$tmp/f.pb.gz"
    run script --script
    run time --time 0..1 --folded "$tmp/f.folded"
    run diff --diff "$d" --folded "$tmp/f.folded"
done
