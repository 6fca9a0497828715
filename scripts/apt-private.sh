#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# apt-private.sh DIR: set up a private apt configuration under DIR (its own
# sources list, state and cache directories) and print the path of its
# apt.conf.  The machine's /etc/apt is only read, never written.
#
# The sources are the Debian bookworm entries of the machine's own apt
# configuration (deb and deb-src), so no mirror is named here.  Set
# DEBIAN_MIRROR=<uri> to use another mirror for all suites instead.
# APT_FOREIGN=arm64: that architecture's packages too (downloads only:
# the machine's dpkg is never told of it).
set -euo pipefail

dir=$1
suites_re='^(bookworm|bookworm-updates|bookworm-security|bookworm-backports)$'
mkdir -p "$dir"/{lists/partial,cache/archives/partial,etc/preferences.d,etc/apt.conf.d}
: > "$dir/status"
list=$dir/etc/sources.list.new

emit() {    # emit URI SUITE COMPONENTS [SIGNED-BY]
    local opt=""
    [ -n "${4:-}" ] && opt="[signed-by=$4] "
    printf 'deb %s%s %s %s\ndeb-src %s%s %s %s\n' \
        "$opt" "$1" "$2" "$3" "$opt" "$1" "$2" "$3"
}

{
if [ -n "${DEBIAN_MIRROR:-}" ]; then
    for s in bookworm bookworm-updates; do
        emit "$DEBIAN_MIRROR" "$s" main
    done
else
    # One-line format: deb [opts] URI SUITE COMPONENTS...
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -r "$f" ] || continue
        sed -e 's/#.*//' "$f" | while read -r type rest; do
            [ "$type" = deb ] || continue
            signed=""
            if [[ $rest == \[* ]]; then
                opts=${rest%%]*}
                rest=${rest#*]}
                [[ $opts =~ signed-by=([^ ]+) ]] && signed=${BASH_REMATCH[1]}
            fi
            read -r uri suite comps <<<"$rest"
            [[ $suite =~ $suites_re ]] || continue
            emit "$uri" "$suite" "$comps" "$signed"
        done
    done
    # deb822 format: stanzas separated by blank lines.
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        awk -v re="$suites_re" '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && uris != "")
                    for (i = split(suites, s, " "); i > 0; i--)
                        if (s[i] ~ re)
                            for (j = split(uris, u, " "); j > 0; j--)
                                printf "%s\t%s\t%s\t%s\n", u[j], s[i], comps, signed
                types = uris = suites = comps = signed = ""
            }
            /^[ \t]*#/ { next }
            /^[ \t]*$/ { flush(); next }
            { key = $1; sub(/:$/, "", key); $1 = ""; sub(/^ /, "")
              if (key == "Types") types = $0
              else if (key == "URIs") uris = $0
              else if (key == "Suites") suites = $0
              else if (key == "Components") comps = $0
              else if (key == "Signed-By") signed = $0 }
            END { flush() }' "$f" |
        while IFS=$'\t' read -r uri suite comps signed; do
            emit "$uri" "$suite" "$comps" "$signed"
        done
    done
fi
} > "$list"

if [ ! -s "$list" ]; then
    echo "error: no Debian bookworm entry found in /etc/apt; set DEBIAN_MIRROR=<uri>" >&2
    exit 1
fi
mv "$list" "$dir/etc/sources.list"

cat > "$dir/apt.conf" <<EOC
Dir::Etc::SourceList "$dir/etc/sources.list";
Dir::Etc::SourceParts "/nonexistent";
Dir::Etc::Preferences "$dir/etc/preferences";
Dir::Etc::PreferencesParts "$dir/etc/preferences.d";
Dir::State "$dir";
Dir::State::Lists "$dir/lists";
Dir::State::status "$dir/status";
Dir::Cache "$dir/cache";
Debug::NoLocking "true";
APT::Sandbox::User "root";
APT::Architecture "amd64";
Acquire::Languages "none";
EOC
if [ -n "${APT_FOREIGN:-}" ]; then
    echo "APT::Architectures { \"amd64\"; \"$APT_FOREIGN\"; };" >> "$dir/apt.conf"
fi
echo "$dir/apt.conf"
