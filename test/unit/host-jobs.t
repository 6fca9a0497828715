#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# The host jobs' TAP is whole on every path: profile-pmu.sh reports as
# many results as it plans, on a host with a usable PMU and on one
# without.  The virtual host has no PMU, so the PMU path runs here
# against a stand-in for xl that answers as a PMU host does (its
# verdicts are not the point: the count of results is).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/test/lib/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
jobs=$top/tools/profile-jobs

mkdir -p "$tmp/bin"
cat > "$tmp/bin/xl" <<'EOF2'
#!/bin/sh
# A stand-in for xl: FAKE_PMU=1 answers as a host with a usable PMU.
case "$*" in
"info") echo "nr_cpus                : 2" ;;
"dmesg") ;;
"profile discard") ;;
"profile status") echo "state   : running"; echo "source  : pmu (requested)" ;;
"profile start -s auto"*)
    echo "profiling 2 pCPUs with the timer source (auto: no usable PMU), 97 Hz" ;;
"profile start -s pmu"*)
    if [ "$FAKE_PMU" != 1 ]; then
        echo "xl profile start: source pmu: no usable PMU" >&2
        exit 1
    fi
    echo "profiling 2 pCPUs with the pmu source (requested), 997 Hz" ;;
"profile stop"*)
    fold=""
    while [ $# -gt 0 ]; do [ "$1" = -o ] && fold=$2; shift; done
    if [ -n "$fold" ]; then
        i=0
        while [ $i -lt 25 ]; do echo "idle_loop;f$i 100"; i=$((i + 1)); done > "$fold"
    fi
    echo "2500 samples (0 lost) saved in x.data" ;;
*) echo "xl: unexpected: $*" >&2; exit 1 ;;
esac
EOF2
chmod +x "$tmp/bin/xl"

plan 4
for pmu in 1 0; do
    PATH=$tmp/bin:$PATH FAKE_PMU=$pmu SECONDS_TO_RUN=1 \
        sh "$jobs/profile-pmu.sh" "$tmp/out$pmu" > "$tmp/tap$pmu" 2>&1
    planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$tmp/tap$pmu")
    seen=$(grep -c -E '^(ok|not ok) [0-9]+ ' "$tmp/tap$pmu")
    what=$([ $pmu = 1 ] && echo "with a usable PMU" || echo "without a PMU")
    check "profile-pmu.sh $what: $seen results for a plan of $planned" \
        test "$seen" = "$planned"
    check "and no result is numbered past the plan" \
        test "$(grep -E '^(ok|not ok) ' "$tmp/tap$pmu" | tail -n 1 | awk '{ print ($1 == "ok") ? $2 : $3 }')" = "$planned"
done
finish
