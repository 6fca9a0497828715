# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the tests of make series and its import.
#
# series_repo TOP DIR: a copy of the checkout TOP (as committed or not)
# in DIR, as a repository of its own (one commit), so that a test can
# edit its patches and give it a git config of its own.  Exports what
# makes the series reproducible and free of the machine's and the user's
# git config: SOURCE_DATE_EPOCH, GIT_CONFIG_NOSYSTEM, HOME (DIR.home).
series_repo() {
    mkdir -p "$2" "$2.home"
    (cd "$1" && git ls-files -z --cached --others --exclude-standard | xargs -0 tar -cf - --) |
        tar -C "$2" -xf -
    export SOURCE_DATE_EPOCH=1700000000 GIT_CONFIG_NOSYSTEM=1 HOME=$2.home
    git -C "$2" init -q && git -C "$2" add -A &&
        git -C "$2" -c user.name=t -c user.email=t@t commit -q -m copy
}
