#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# sshd.sh OUTDIR: serve SSH in dom0 of the virtual host, for the osstest
# run (test/osstest/osstest.t).  Needs run.py --ssh-port (the NIC),
# VHOST_EXTRA with dropbear and sftp-server, and authorized_keys beside
# this job (root's key).  Prints "VHOST: sshd ready" once dropbear
# listens, then waits until /run/vhost-done exists (written over SSH:
# the exit status) or SSHD_SECONDS (default 1800) have passed.
here=$(cd "$(dirname "$0")" && pwd)
# It rewrites /etc/passwd: only ever in the virtual host's dom0.
if [ ! -d /proc/xen ] || [ "$here" != /job ]; then
    echo "sshd.sh: only for dom0 of the virtual host (/job/run)" >&2
    exit 1
fi
mkdir -p /root/.ssh /etc/dropbear
echo 'root:x:0:0:root:/root:/bin/sh' > /etc/passwd
echo 'root:x:0:' > /etc/group
echo /bin/sh > /etc/shells
cp "$here/authorized_keys" /root/.ssh/authorized_keys
chmod 700 /root /root/.ssh
chmod 600 /root/.ssh/authorized_keys

# QEMU's user network: dom0 is 10.0.2.15.
ip link set lo up
ip link set eth0 up &&
    ip addr add 10.0.2.15/24 dev eth0 ||
    { echo "VHOST-ERROR: sshd.sh: no eth0"; exit 1; }
dropbear -R -E -p 22 -P /run/dropbear.pid ||
    { echo "VHOST-ERROR: sshd.sh: dropbear did not start"; exit 1; }
echo "VHOST: sshd ready"

i=0 limit=${SSHD_SECONDS:-1800}
while [ ! -f /run/vhost-done ]; do
    sleep 5
    i=$((i + 5))
    [ $((i % 30)) -eq 0 ] && echo "VHOST: sshd up ${i}s"
    if [ $i -ge "$limit" ]; then
        echo "VHOST-ERROR: sshd.sh: not told to finish in ${limit}s"
        exit 1
    fi
done
exit "$(cat /run/vhost-done)"
