/* SPDX-License-Identifier: MIT */
/*
 * profilectl.h
 *
 * The hypervisor sampling profiler: XEN_SYSCTL_profile_op (see sysctl.h)
 * and the sample records it copies out.  Control domain only.
 *
 * Life cycle (state):
 *   IDLE --start--> [STARTING] --> RUNNING --stop--> STOPPED --release--> IDLE
 * RUNNING samples every selected pCPU into a ring of its own.  STOPPED
 * keeps the rings, so samples not read yet are never lost: read works in
 * RUNNING and STOPPED, and release frees the rings.  A start allocates
 * the rings one pCPU at a time and continues itself (STARTING, in which
 * only that start's own continuation, and release, are accepted).
 *
 * Errors: every errno any sub-op returns (negative, as every sysctl).
 *   all sub-ops
 *     -EPERM       not the control domain (XSM dummy policy)
 *     -EACCES      FLASK denies xen2:profile_op; or a sysctl interface
 *                  version other than the hypervisor's
 *     -EINVAL      xen_sysctl_profile_op.pad not zero
 *     -EOPNOTSUPP  unknown sub-op; the profiler is not built
 *                  (CONFIG_XEN_PROFILER=n)
 *   start
 *     -EINVAL      a reserved field (flags, nr_failed) not zero, an unknown
 *                  source or event, depth, ring size, frequency or period
 *                  out of range, not exactly one of frequency and period,
 *                  a period with source AUTO (its unit depends on the source),
 *                  a pCPU mask naming an offline or absent pCPU, or none
 *     -EBUSY       not IDLE (samples of an earlier session may still be
 *                  unread: stop, read and release it first), or a start in
 *                  progress with other arguments; the PMU is taken (reason:
 *                  VPMU, XENOPROF)
 *     -EOPNOTSUPP  the source asked for cannot run here (reason says why)
 *     -E2BIG       the rings of all selected pCPUs would exceed the cap
 *                  (XEN_PROFILE_MAX_TOTAL_MIB, XEN_PROFILE_FREE_FRACTION)
 *     -ENOMEM      a ring cannot be allocated (nothing is kept)
 *     -EIO         no selected pCPU could be started (nothing is kept);
 *                  when some could, start succeeds with nr_failed > 0
 *     -EFAULT      the pCPU mask could not be read
 *   stop
 *     -ENODATA     IDLE: no session
 *     -EBUSY       a start is in progress
 *   status
 *     -EFAULT      cpus could not be written
 *   read
 *     -EINVAL      unknown flag, pad not zero, an offset without PEEK, a
 *                  pCPU without a ring, a PEEK offset past the end or not
 *                  where a record starts (nothing is read)
 *     -ENODATA     IDLE: no session
 *     -EBUSY       a start is in progress; a PEEK read while RUNNING
 *     -ENOBUFS     the buffer cannot hold the next record
 *     -EFAULT      the buffer could not be written (records copied before
 *                  it stay consumed, and bytes/records say so)
 *     -EIO         never returned but for memory corruption of a ring
 *   release
 *     -ENODATA     IDLE: no session
 *     -EBUSY       RUNNING: stop first
 *   symbols
 *     -EINVAL      index past the end of the table
 *     -ENOBUFS     the buffer cannot hold the next entry
 *     -EFAULT      the buffer could not be written
 */

#ifndef __XEN_PUBLIC_PROFILECTL_H__
#define __XEN_PUBLIC_PROFILECTL_H__

#if !defined(__XEN__) && !defined(__XEN_TOOLS__)
#error "profilectl.h is for the hypervisor and the toolstack only"
#endif

#include "xen.h"

/* Sub-ops (xen_sysctl_profile_op.cmd). */
#define XEN_PROFILE_OP_start          1
#define XEN_PROFILE_OP_stop           2
#define XEN_PROFILE_OP_status         3
#define XEN_PROFILE_OP_read           4
#define XEN_PROFILE_OP_release        5
#define XEN_PROFILE_OP_symbols        6

/* Sample sources. */
#define XEN_PROFILE_SOURCE_AUTO       0 /* pmu when usable, else timer */
#define XEN_PROFILE_SOURCE_TIMER      1 /* per-pCPU timer interrupt */
#define XEN_PROFILE_SOURCE_PMU        2 /* PMU counter overflow NMI */

/* PMU events (xen_profile_start.event; the timer source takes 0). */
#define XEN_PROFILE_EVENT_DEFAULT       0 /* cycles */
#define XEN_PROFILE_EVENT_CYCLES        1
#define XEN_PROFILE_EVENT_INSTRUCTIONS  2
#define XEN_PROFILE_EVENT_REF_CYCLES    3 /* Intel only */
#define XEN_PROFILE_EVENT_LLC_MISSES    4 /* Intel only */
#define XEN_PROFILE_EVENT_BRANCH_MISSES 5

/* Why the source in use was chosen (status.reason, start.reason). */
#define XEN_PROFILE_REASON_REQUESTED  0 /* asked for by name */
#define XEN_PROFILE_REASON_NO_PMU     1 /* auto: no usable PMU found */
#define XEN_PROFILE_REASON_PMU_BUSY   2 /* auto: PMU owned by another user */
#define XEN_PROFILE_REASON_NO_PMU_SRC 3 /* auto: no PMU source in this build */
#define XEN_PROFILE_REASON_PMU_OK     4 /* auto: a usable PMU */
#define XEN_PROFILE_REASON_VPMU       5 /* PMU busy: vPMU is enabled */
#define XEN_PROFILE_REASON_XENOPROF   6 /* PMU busy: xenoprof owns it */
#define XEN_PROFILE_REASON_NMI_BUSY   7 /* no longer returned (kept: ABI) */
#define XEN_PROFILE_REASON_NO_EVENT   8 /* this CPU lacks the event */
#define XEN_PROFILE_REASON_NO_NMI     9 /* the probe saw no overflow NMI */

/* Session states (status.state). */
#define XEN_PROFILE_STATE_IDLE        0
#define XEN_PROFILE_STATE_RUNNING     1
#define XEN_PROFILE_STATE_STOPPED     2
#define XEN_PROFILE_STATE_STARTING    3 /* a start allocating its rings, in
                                           continuations; release undoes it */

/* Limits. */
#define XEN_PROFILE_MAX_DEPTH         127     /* Xen frames per sample */
#define XEN_PROFILE_DEFAULT_DEPTH     64
#define XEN_PROFILE_MIN_RING_KIB      16
#define XEN_PROFILE_MAX_RING_KIB      65536
#define XEN_PROFILE_DEFAULT_RING_KIB  1024
/*
 * The rings of one session together: at most XEN_PROFILE_MAX_TOTAL_MIB,
 * and at most 1/XEN_PROFILE_FREE_FRACTION of Xen's free memory at start.
 */
#define XEN_PROFILE_MAX_TOTAL_MIB     4096
#define XEN_PROFILE_FREE_FRACTION     4
#define XEN_PROFILE_MAX_TIMER_HZ      10000
#define XEN_PROFILE_MIN_TIMER_NS      100000  /* 10 kHz */
#define XEN_PROFILE_MAX_TIMER_NS      1000000000ULL
/*
 * The PMU source's overflows, per pCPU: one that comes sooner after the
 * last than this rate allows doubles the period (counted in
 * xen_profile_cpu.throttled), as perf's maximum sample rate.
 */
#define XEN_PROFILE_MAX_SAMPLE_HZ     50000

/*
 * XEN_PROFILE_OP_start: start sampling.  Exactly one of frequency and
 * period is non-zero.  For the timer source the period is in nanoseconds;
 * for the PMU source it is a number of events (so a period needs a source
 * named: not AUTO).
 */
struct xen_profile_start {
    uint32_t source;            /* IN: XEN_PROFILE_SOURCE_* */
    uint32_t flags;             /* IN: none defined yet, must be 0 */
    uint32_t frequency;         /* IN: samples/s per pCPU, or 0 */
    uint32_t max_depth;         /* IN: 1..XEN_PROFILE_MAX_DEPTH */
    uint64_aligned_t period;    /* IN: ns (timer) / events (pmu), or 0 */
    uint32_t ring_kib;          /* IN: ring per pCPU, 0 = default */
    uint32_t event;             /* IN: XEN_PROFILE_EVENT_*, 0 for timer */
    struct xenctl_bitmap cpumap;/* IN: pCPUs; nr_bits == 0: all online */
    uint32_t reason;            /* OUT: why the source was chosen, or why
                                   start failed (XEN_PROFILE_REASON_*) */
    uint32_t nr_failed;         /* IN: must be 0; OUT: selected pCPUs whose
                                   source could not be started (status
                                   flags them XEN_PROFILE_CPU_FAILED) */
};
typedef struct xen_profile_start xen_profile_start_t;

/* Per-pCPU state in status (xen_profile_cpu.flags). */
#define XEN_PROFILE_CPU_SAMPLED    (1u << 0) /* being sampled now */
#define XEN_PROFILE_CPU_RING       (1u << 1) /* has a ring: readable */
#define XEN_PROFILE_CPU_OFFLINED   (1u << 2) /* went offline in the session */
#define XEN_PROFILE_CPU_LEFT_OUT   (1u << 3) /* came online in the session:
                                               not sampled */
#define XEN_PROFILE_CPU_FAILED     (1u << 4) /* its sample source could not
                                               be started: not sampled */

struct xen_profile_cpu {
    uint64_aligned_t taken;     /* OUT: samples taken (written + lost) */
    uint64_aligned_t lost;      /* OUT: dropped: the ring was full */
    uint64_aligned_t read;      /* OUT: records read out */
    uint64_aligned_t pending;   /* OUT: records in the ring */
    uint64_aligned_t pending_bytes; /* OUT: bytes in the ring */
    uint64_aligned_t cost_min;  /* OUT: TSC ticks spent in the sample */
    uint64_aligned_t cost_max;  /*      path: min, max and sum over */
    uint64_aligned_t cost_sum;  /*      the samples taken */
    uint64_aligned_t no_stack;  /* OUT: samples with XEN_PROFILE_F_NO_STACK */
    uint64_aligned_t throttled; /* OUT: PMU overflows faster than
                                   XEN_PROFILE_MAX_SAMPLE_HZ: the period
                                   was raised */
    uint32_t flags;             /* OUT: XEN_PROFILE_CPU_* */
    uint32_t pad;               /* OUT: zero */
};
typedef struct xen_profile_cpu xen_profile_cpu_t;
DEFINE_XEN_GUEST_HANDLE(xen_profile_cpu_t);

/*
 * XEN_PROFILE_OP_status: the session and, if cpus is not null, one
 * xen_profile_cpu per pCPU id below min(nr_cpus, nr_cpu_ids).  Works in
 * every state (IDLE reports zeros).  Invariant per pCPU, exact:
 *   taken == read + lost + pending
 */
struct xen_profile_status {
    uint32_t state;             /* OUT: XEN_PROFILE_STATE_* */
    uint32_t source;            /* OUT: source in use */
    uint32_t reason;            /* OUT: XEN_PROFILE_REASON_* */
    uint32_t max_depth;         /* OUT */
    uint32_t frequency;         /* OUT: as started (0 if period given) */
    uint32_t ring_kib;          /* OUT: ring per pCPU */
    uint64_aligned_t period;    /* OUT: ns (timer) / events (pmu) */
    uint64_aligned_t start_tsc; /* OUT: TSC at start */
    uint64_aligned_t stop_tsc;  /* OUT: TSC at stop, 0 while running */
    uint32_t record_version;    /* OUT: XEN_PROFILE_RECORD_VERSION */
    uint32_t nr_cpus;           /* IN: entries in cpus; OUT: nr_cpu_ids */
    XEN_GUEST_HANDLE_64(xen_profile_cpu_t) cpus; /* IN: may be null */
};
typedef struct xen_profile_status xen_profile_status_t;

/*
 * XEN_PROFILE_OP_read: copy whole records of one pCPU's ring into buffer.
 * Without flags the records are consumed.  With XEN_PROFILE_READ_PEEK
 * (only when STOPPED) nothing is consumed: reading starts offset bytes
 * after the oldest record and offset returns where the next read starts,
 * so a tool can save every sample before it releases them.  A buffer of
 * XEN_PROFILE_MAX_RECORD bytes always holds the next record.
 */
#define XEN_PROFILE_READ_PEEK (1u << 0)

struct xen_profile_read {
    uint32_t cpu;               /* IN: pCPU */
    uint32_t size;              /* IN: buffer size in bytes */
    XEN_GUEST_HANDLE_64(uint8) buffer; /* IN */
    uint32_t flags;             /* IN: XEN_PROFILE_READ_* */
    uint32_t bytes;             /* OUT: bytes copied */
    uint32_t records;           /* OUT: records copied */
    uint32_t pad;               /* IN: must be 0 */
    uint64_aligned_t offset;    /* IN/OUT: PEEK position, else 0 */
    uint64_aligned_t pending_bytes; /* OUT: bytes left after offset */
};
typedef struct xen_profile_read xen_profile_read_t;

/*
 * XEN_PROFILE_OP_symbols: copy the hypervisor's embedded symbol table, as
 * struct xen_profile_symbol entries, starting at symbol index.  On return
 * index is the next index to ask for; count == 0 means the end.  One call
 * fills a whole buffer (thousands of symbols), where XENPF_get_symbol
 * returns one symbol per hypercall.
 */
struct xen_profile_symbols {
    uint32_t index;             /* IN/OUT: symbol index */
    uint32_t size;              /* IN: buffer size in bytes */
    XEN_GUEST_HANDLE_64(uint8) buffer; /* IN */
    uint32_t bytes;             /* OUT: bytes copied */
    uint32_t count;             /* OUT: entries copied */
};
typedef struct xen_profile_symbols xen_profile_symbols_t;

/* An entry of the symbols buffer; entries are 8-byte aligned. */
struct xen_profile_symbol {
    uint64_aligned_t address;
    uint16_t size;              /* entry bytes: header, name, NUL, padding */
    uint8_t type;               /* nm(1) type letter: 'T', 't', 'D', ... */
    uint8_t len;                /* strlen(name) */
    uint32_t pad;               /* zero */
    /* char name[len + 1] follows */
};
typedef struct xen_profile_symbol xen_profile_symbol_t;

struct xen_sysctl_profile_op {
    uint32_t cmd;               /* IN: XEN_PROFILE_OP_* */
    uint32_t pad;               /* IN: must be 0 */
    union {
        xen_profile_start_t start;
        xen_profile_status_t status;
        xen_profile_read_t read;
        xen_profile_symbols_t symbols;
        uint8_t pad[96];        /* stop and release take no argument */
    } u;
};
typedef struct xen_sysctl_profile_op xen_sysctl_profile_op_t;

/*
 * The record stream returned by XEN_PROFILE_OP_read.  Records are 8-byte
 * aligned, little-endian, and self-describing by size; a reader skips types
 * it does not know.  The layout below is XEN_PROFILE_RECORD_VERSION 1.
 */
#define XEN_PROFILE_RECORD_VERSION    1

#define XEN_PROFILE_REC_SAMPLE        1 /* struct xen_profile_record */
#define XEN_PROFILE_REC_LOST          2 /* struct xen_profile_lost */

/* Where the sampled pCPU was (xen_profile_record.mode). */
#define XEN_PROFILE_MODE_XEN          0 /* hypervisor: ip[] is Xen's stack */
#define XEN_PROFILE_MODE_GUEST_KERNEL 1 /* guest kernel: ip[0] = guest IP */
#define XEN_PROFILE_MODE_GUEST_USER   2 /* guest user: ip[0] = guest IP */

/* xen_profile_record.flags */
#define XEN_PROFILE_F_TRUNCATED  (1u << 0) /* walk cut by max_depth */
#define XEN_PROFILE_F_BAD_FRAME  (1u << 1) /* walk cut by a bad frame */
#define XEN_PROFILE_F_HVM        (1u << 2) /* the vCPU is HVM */
#define XEN_PROFILE_F_IDLE       (1u << 3) /* the idle vCPU was running */
/*
 * Xen context, but the interrupted %rsp was in none of this pCPU's Xen
 * stacks (the PV SYSCALL/SYSENTER entry stub and the SYSRET exit path run
 * at CPL0 on the guest's %rsp): ip[0] only, no walk.
 */
#define XEN_PROFILE_F_NO_STACK   (1u << 4)

struct xen_profile_record {
    uint16_t size;              /* bytes, frames included; multiple of 8 */
    uint8_t type;               /* XEN_PROFILE_REC_* */
    uint8_t flags;              /* XEN_PROFILE_F_* */
    uint16_t domid;             /* domain of the running vCPU (DOMID_IDLE) */
    uint16_t vcpu;              /* its vCPU id */
    uint16_t cpu;               /* pCPU */
    uint8_t mode;               /* XEN_PROFILE_MODE_* */
    uint8_t nr_frames;          /* entries in ip[], 1..1 + max_depth */
    uint32_t pad;               /* zero */
    uint64_aligned_t tsc;       /* TSC when the sample was taken */
    /*
     * uint64_t ip[nr_frames] follows: ip[0] is the interrupted instruction,
     * ip[1..] the return addresses of the Xen frames, innermost first.
     */
};
typedef struct xen_profile_record xen_profile_record_t;

/*
 * XEN_PROFILE_REC_LOST: samples of pCPU cpu dropped (its ring was full)
 * since its previous record in the stream.  Written ahead of the pCPU's
 * next record that fits, and at stop for the samples lost last; tsc is
 * when it was written.  The per-pCPU lost counters stay the exact total:
 * these records tell when samples were lost.  hdr.size is 32, hdr.flags,
 * domid, vcpu, mode and nr_frames are zero.  A reader of record version 1
 * that does not know the type skips it.
 */
struct xen_profile_lost {
    struct xen_profile_record hdr;
    uint64_aligned_t count;     /* samples lost */
};
typedef struct xen_profile_lost xen_profile_lost_t;

#define XEN_PROFILE_MAX_RECORD \
    (sizeof(struct xen_profile_record) + 8 * (1 + XEN_PROFILE_MAX_DEPTH))

#endif /* __XEN_PUBLIC_PROFILECTL_H__ */

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
