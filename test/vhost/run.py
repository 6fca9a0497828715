#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-only
"""Boot Xen + dom0 in QEMU (TCG), run a job in dom0, collect its results.

usage: run.py --xen XEN --kernel VMLINUX --initrd CPIO --out DIR [--timeout S]
             [--arch x86_64|arm64]

x86_64: qemu-system-x86_64 with SVM, Xen booted by multiboot.  arm64:
qemu-system-aarch64's virt board with EL2 and GICv3, a Cortex-A57 (PMUv3,
whose overflow interrupt QEMU emulates), dom0's kernel and initramfs
loaded by -device guest-loader, the results disk on virtio-mmio.

The serial console goes to DIR/console.log, each line stamped with the
seconds since QEMU started.  The job's own output (between the VHOST job
start/end markers) is also echoed to stdout, indented.  When dom0 powers off, the
results disk is unpacked into DIR/results.

Exit status: the job's exit status when it ran to the end; 124 when the
wall-clock timeout or the silence timeout expired; 125 when Xen or dom0
crashed or the harness failed.  On any failure the console tail is printed.
On a hang or a timeout, before QEMU is stopped, Xen and dom0 are asked for
their state on the console (see dump_state()), and that is printed too.
"""

import argparse
import os
import re
import select
import subprocess
import sys
import tarfile
import time

FATAL = re.compile(r"Panic on CPU|Hardware Dom0 crashed|Kernel panic|"
                   r"Attempted to kill init|KVM internal error|"
                   r"FATAL TRAP|VHOST-ERROR")
# SVM with nested paging (NPT): HVM and PVH guests run with HAP.  SMAP
# under TCG crashes a PV dom0: never enable it.
CPU = "qemu64,+svm,+npt"


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--xen", required=True)
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--timeout", type=float, default=600)
    p.add_argument("--silence", type=float, default=120,
                   help="fail when the console is silent this long")
    p.add_argument("--smp", type=int, default=2)
    p.add_argument("--mem", type=int, default=2048)
    p.add_argument("--xen-args", default="")
    p.add_argument("--module", action="append", default=[],
                   help="an extra multiboot module (e.g. an XSM policy)")
    p.add_argument("--timing", help="append stage timings to this file")
    p.add_argument("--ssh-port", type=int, default=0,
                   help="give dom0 a NIC (QEMU user networking, restricted:"
                        " no way out) with this port of 127.0.0.1 forwarded"
                        " to its port 22")
    p.add_argument("--arch", choices=("x86_64", "arm64"), default="x86_64")
    p.add_argument("--icount", action="store_true",
                   help="arm64: count instructions (-icount shift=0),"
                        " so that the emulated PMU has INST_RETIRED")
    p.add_argument("--quiet", action="store_true",
                   help="do not echo the job's output")
    return p.parse_args()


def qemu_cmd(a, disk):
    if a.arch == "arm64":
        return qemu_cmd_arm64(a, disk)
    xen_args = ("console=com1 com1=115200,8n1 dom0_mem=1024M,max:1024M "
                "dom0_max_vcpus=%d loglvl=all guest_loglvl=all noreboot %s"
                % (a.smp, a.xen_args))
    return ["qemu-system-x86_64", "-accel", "tcg", "-cpu", CPU,
            "-m", str(a.mem), "-smp", str(a.smp),
            "-nographic", "-no-reboot", "-monitor", "none",
            "-kernel", a.xen, "-append", xen_args.strip(),
            "-initrd", ",".join(
                ["%s console=hvc0 earlyprintk=xen" % a.kernel.replace(",", ",,"),
                 a.initrd.replace(",", ",,")] +
                [m.replace(",", ",,") for m in a.module]),
            "-drive", "file=%s,format=raw,if=none,id=res" % disk,
            "-device", "virtio-blk-pci,drive=res,disable-legacy=on,"
                       "iommu_platform=on"] + net_args(a)


# Where -device guest-loader puts dom0's kernel and initramfs in the virt
# board's RAM (from 0x40000000): above Xen (0x40200000) and the device
# tree QEMU writes at 0x48000000.
ARM_KERNEL_ADDR = 0x49000000
ARM_INITRD_ADDR = 0x50000000


def qemu_cmd_arm64(a, disk):
    xen_args = ("console=dtuart dom0_mem=1024M,max:1024M dom0_max_vcpus=%d "
                "loglvl=all guest_loglvl=all %s" % (a.smp, a.xen_args))
    if a.module:
        raise SystemExit("run.py: --module is not supported with --arch arm64")
    return ["qemu-system-aarch64", "-accel", "tcg",
            "-M", "virt,virtualization=on,gic-version=3",
            "-cpu", "cortex-a57", "-m", str(a.mem), "-smp", str(a.smp),
            "-nographic", "-no-reboot", "-monitor", "none",
            "-kernel", a.xen, "-append", xen_args.strip(),
            "-device", "guest-loader,addr=0x%x,kernel=%s,bootargs=%s"
            % (ARM_KERNEL_ADDR, a.kernel.replace(",", ",,"),
               "console=hvc0 earlycon=xen rdinit=/init"),
            "-device", "guest-loader,addr=0x%x,initrd=%s"
            % (ARM_INITRD_ADDR, a.initrd.replace(",", ",,")),
            "-drive", "file=%s,format=raw,if=none,id=res" % disk,
            "-device", "virtio-blk-device,drive=res", "-nic", "none"] + \
        (["-icount", "shift=0"] if a.icount else [])


def net_args(a):
    """The NIC of --ssh-port: only 127.0.0.1:PORT reaches dom0's sshd, and
    restrict=on keeps dom0 from reaching anything (host or network)."""
    if not a.ssh_port:
        return ["-nic", "none"]
    return ["-netdev", "user,id=net0,restrict=on,"
                       "hostfwd=tcp:127.0.0.1:%d-:22" % a.ssh_port,
            "-device", "virtio-net-pci,netdev=net0,disable-legacy=on,"
                       "iommu_platform=on"]


# The markers dom0-init prints ("VHOST: <marker>"), in order.
MARKS = ("dom0 up", "toolstack up", "job start", "job end", "results written")


class Console:
    """Reads QEMU's serial output, stamps and logs it, finds markers."""

    def __init__(self, log, echo):
        self.log = log
        self.echo = echo
        self.t0 = time.monotonic()
        self.buf = b""
        self.tail = []
        self.captured = None
        self.in_job = False
        self.marks = {}
        self.rc = None
        self.fatal = None
        self.last = self.t0

    def feed(self, data):
        self.last = time.monotonic()
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        for raw in lines:
            self.line(raw.decode("utf-8", "replace").rstrip("\r"))

    def line(self, text):
        now = time.monotonic() - self.t0
        self.log.write("[%8.3f] %s\n" % (now, text))
        self.tail = (self.tail + [text])[-40:]
        if self.captured is not None and len(self.captured) < STATE_LINES:
            self.captured.append(text)
        if "VHOST: job end" in text:
            self.in_job = False
        if self.in_job and self.echo:
            print("    " + text, flush=True)
        if "VHOST: job start" in text:
            self.in_job = True
        for key in MARKS:
            if "VHOST: " + key in text and key not in self.marks:
                self.marks[key] = now
        m = re.search(r"VHOST-RESULT: rc=(\d+)", text)
        if m:
            self.rc = int(m.group(1))
        if self.fatal is None and FATAL.search(text):
            self.fatal = (now, text.strip())


# What is asked for on the serial line when the host stops making
# progress: Ctrl-A three times gives the input to Xen, whose debug keys
# 'd' (each pCPU's registers and Xen stack) and '0' (dom0's vCPUs, their
# guest registers and stacks) say where it is; three more give it back
# to dom0, whose console takes ^O as SysRq ('w': blocked tasks, 'l': the
# CPUs' backtraces; dom0-init enables SysRq).
STATE_KEYS = [b"\x01\x01\x01", b"d", b"0", b"\x01\x01\x01", b"\x0fw", b"\x0fl"]
STATE_SECS = 8
STATE_LINES = 300


def dump_state(proc, con):
    """Ask Xen and dom0 for their state; read the console for STATE_SECS.
    Returns the lines they printed (the first STATE_LINES)."""
    con.captured = []
    end = time.monotonic() + STATE_SECS
    keys = list(STATE_KEYS)
    while time.monotonic() < end:
        if keys:
            try:
                proc.stdin.write(keys.pop(0))
                proc.stdin.flush()
            except OSError:
                keys = []
        r, _, _ = select.select([proc.stdout], [], [], 0.5)
        if r:
            data = os.read(proc.stdout.fileno(), 65536)
            if not data:
                break
            con.feed(data)
    return con.captured


def progress(con):
    """How far the host got: the markers it reached, with their times."""
    seen = ["%s at %.1f s" % (k, con.marks[k])
            for k in MARKS if k in con.marks]
    return "reached: " + (", ".join(seen) if seen else "no marker")


def run(a):
    os.makedirs(a.out, exist_ok=True)
    disk = os.path.join(a.out, "results.img")
    with open(disk, "wb") as f:
        f.truncate(256 << 20)
    logpath = os.path.join(a.out, "console.log")
    with open(logpath, "w", buffering=1) as log:
        con = Console(log, not a.quiet)
        proc = subprocess.Popen(qemu_cmd(a, disk), stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
        why = None
        state = []
        while True:
            r, _, _ = select.select([proc.stdout], [], [], 0.5)
            if r:
                data = os.read(proc.stdout.fileno(), 65536)
                if not data:
                    break
                con.feed(data)
            now = time.monotonic()
            if now - con.t0 > a.timeout:
                why = "timeout: no power-off within %d s" % a.timeout
            elif now - con.last > a.silence:
                why = "hang: console silent for %d s" % a.silence
            elif con.fatal and now - con.t0 > con.fatal[0] + 5:
                why = "crash: %s" % con.fatal[1]
            if why:
                tail = con.tail
                if not why.startswith("crash"):
                    state = dump_state(proc, con)
                con.tail = tail
                proc.kill()
                break
        if con.buf:
            con.line(con.buf.decode("utf-8", "replace"))
        proc.wait()
        if why is None and con.fatal:
            why = "crash: %s" % con.fatal[1]
    total = time.monotonic() - con.t0
    timing(a, con, total)
    if why is None and con.rc is None:
        why = "QEMU exited (status %d) before the job finished" % proc.returncode
    if why is None:
        why = unpack(disk, os.path.join(a.out, "results"))
    os.unlink(disk)
    if why:
        # The state first and the console tail last, then the verdict:
        # a log cut to its end still says how far the host got.
        if state:
            print("vhost: the state Xen and dom0 gave then:", file=sys.stderr)
            for t in state:
                print("  | " + t, file=sys.stderr)
        print("vhost: console tail before that (full log: %s):" % logpath,
              file=sys.stderr)
        for t in con.tail:
            print("  | " + t, file=sys.stderr)
        print("vhost: FAILED after %.1f s: %s; %s" % (total, why,
                                                      progress(con)),
              file=sys.stderr)
        return 124 if why.startswith(("timeout", "hang")) else 125
    print("vhost: job exit status %d after %.1f s (log: %s)"
          % (con.rc, total, logpath), file=sys.stderr)
    return con.rc


def unpack(disk, dest):
    os.makedirs(dest, exist_ok=True)
    try:
        with tarfile.open(disk, "r:") as t:
            members = t.getmembers()
            for m in members:
                # Only plain files and folders, inside dest.
                path = os.path.normpath(m.name)
                if (not (m.isfile() or m.isdir()) or path.startswith("..")
                        or os.path.isabs(path)):
                    return "unsafe entry in the results: %r" % m.name
            t.extractall(dest, members)
    except (tarfile.TarError, OSError) as e:
        return "cannot unpack the results disk: %s" % e
    return None


def timing(a, con, total):
    if not a.timing:
        return
    m = con.marks
    # TIMING_PREFIX (e.g. "xen-4.22/") splits the table per Xen base.
    pre = os.environ.get("TIMING_PREFIX", "")
    with open(a.timing, "a") as f:
        if "job start" in m:
            f.write("%sboot %.1f\n" % (pre, m["job start"]))
        if "job start" in m and "job end" in m:
            f.write("%sjob %.1f\n" % (pre, m["job end"] - m["job start"]))
        f.write("%sqemu-total %.1f\n" % (pre, total))


if __name__ == "__main__":
    sys.exit(run(parse_args()))
