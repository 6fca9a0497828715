# SPDX-License-Identifier: GPL-2.0-only
# vhost-job.sh: run a TAP job in dom0 of the virtual host from a test
# (bash), and pass its results through.  Source it after tap.sh, then
#   vhost_job NAME "VHOST.SH OPTIONS" OUT JOB [FILE...]
# runs test/vhost/vhost.sh --quiet OPTIONS OUT JOB FILE..., echoes the
# job's results as "ok - NAME: ..." lines, and checks that the job exited
# 0 and reported every result it planned.  $vhost_rc is vhost.sh's status.
: "${top:?vhost-job.sh: set top to the repository}"

vhost_job() {
    local name=$1 opts=$2 out=$3 job planned seen
    shift 2
    # shellcheck disable=SC2086
    "$top/test/vhost/vhost.sh" --quiet $opts "$@"
    vhost_rc=$?
    job=$(sed -n '/VHOST: job start/,/VHOST: job end/p' "$out/console.log" |
          sed -e 's/^\[ *[0-9.]*\] //' -e 's/\r$//')
    planned=$(echo "$job" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
    echo "$job" | grep -E '^(ok|not ok) ' | sed "s/^\(ok\|not ok\) [0-9]* -/\1 - $name:/"
    seen=$(echo "$job" | grep -c -E '^(ok|not ok) ')
    check "the $name exits 0 (status $vhost_rc)" test $vhost_rc -eq 0
    check "the $name reported all ${planned:-?} planned results ($seen)" \
        test "$seen" = "${planned:-x}"
    # The job's other lines (its diagnostics), for the test's checks.
    vhost_job_output=$job
}
