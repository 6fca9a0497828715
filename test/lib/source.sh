# SPDX-License-Identifier: GPL-2.0-only
# Reading C sources for the seams tests (bash; source it):
#   body FILE FUNC      the lines of FUNC's definition in FILE
#   before FILE A B     the first line matching A comes before the first
#                       matching B (both exist; extended regexes)
body() {
    awk -v f="$2" '$0 ~ "^[a-z].*[ *]" f "\\(" { on = 1 } on { print }
                   on && /^}/ { exit }' "$1"
}
before() {
    local a b
    a=$(grep -n -m1 -E "$2" "$1" | cut -d: -f1)
    b=$(grep -n -m1 -E "$3" "$1" | cut -d: -f1)
    [ -n "$a" ] && [ -n "$b" ] && [ "$a" -lt "$b" ]
}
