/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cost.c: the instructions of one sample, counted by valgrind's
 * callgrind (valgrind --tool=callgrind --toggle-collect=sample_once).
 * sample_once() is
 * what a Xen-mode sample runs on the userspace builds of the hypervisor
 * code (the Makefile's copies of unwind.c and ring.c): the in_sample
 * handshake and the record's header as in common/profile/sample.c and
 * arch/x86/profile/sample.c's build_record() (their Xen-only accessors,
 * current and rdtsc, are loads here), the walk (profile_walk()) of a
 * chain of DEPTH frames on the primary stack of a STACK_SIZE block, and
 * the ring commit (profile_ring_commit()).
 *
 * usage: profile-cost DEPTH [SAMPLES]   (prints the frames walked)
 */
#include <stdio.h>
#include <stdlib.h>

#include "emul.h"

#define RING_SIZE   (1u << 20)
#define MAX_DEPTH   64

/* The record header of public/sysctl.h (the size test-lost checks). */
struct rec {
    uint16_t size;
    uint8_t type, flags;
    uint16_t domid, vcpu, cpu;
    uint8_t mode, nr_frames;
    uint32_t pad;
    uint64_t tsc;
};

static struct {
    bool sampling, in_sample;
    uint64_t t0, cost_min, cost_max, cost_sum;
    uint64_t scratch[(sizeof(struct rec) + 8 * (MAX_DEPTH + 1)) / 8];
    struct profile_ring ring;
} pc;

/* unwind.c's stack bounds: without FRED, as emul.h declares. */
int8_t opt_fred;

static volatile uint64_t fake_tsc;
static volatile uint16_t fake_domid, fake_vcpu;
/*
 * Six roots, as Xen has (arch/x86/profile/sample.c: idle_loop, the
 * context switch tails, the HVM resume paths), indexed as Xen indexes
 * them over a 4 MiB text; no frame is in them.
 */
static struct profile_unwind_roots roots;
static const unsigned long root_at[] = {
    0x1800, 0x40400, 0x123000, 0x2a0800, 0x334000, 0x3f0a00 };

/* The regs of the interrupted context: ip, sp and bp into the stack. */
static struct cpu_user_regs regs;
static unsigned long base;

static void __attribute__((noinline)) sample_once(void)
{
    struct rec *rec;
    uint64_t *ip, cost;
    unsigned int n = 1, flags = 0;

    /* sample_begin() */
    write_atomic(&pc.in_sample, true);
    smp_mb();
    if ( !ACCESS_ONCE(pc.sampling) )
        return;
    pc.t0 = fake_tsc;
    rec = (struct rec *)pc.scratch;
    ip = (uint64_t *)(rec + 1);

    /* build_record(), Xen mode */
    ip[0] = regs.rip;
    n += profile_walk(regs.rip, regs.rsp, regs.rbp, base, &roots, ip + 1,
                      MAX_DEPTH, &flags);
    rec->size = sizeof(*rec) + n * sizeof(*ip);
    rec->type = 1;
    rec->flags = flags;
    rec->domid = fake_domid;
    rec->vcpu = fake_vcpu;
    rec->cpu = 0;
    rec->mode = 0;
    rec->nr_frames = n;
    rec->pad = 0;
    rec->tsc = fake_tsc;

    /* profile_sample_commit() */
    profile_ring_commit(&pc.ring, rec, rec->size, rec->cpu, rec->tsc);
    cost = fake_tsc - pc.t0;
    if ( !pc.cost_min || cost < pc.cost_min )
        pc.cost_min = cost;
    if ( cost > pc.cost_max )
        pc.cost_max = cost;
    pc.cost_sum += cost;
    smp_mb();
    write_atomic(&pc.in_sample, false);
}

int main(int argc, char **argv)
{
    unsigned int depth = argc > 1 ? atoi(argv[1]) : 16, i;
    unsigned long samples = argc > 2 ? strtoul(argv[2], NULL, 0) : 1000;
    unsigned long *w, bottom, fp;
    void *ring = malloc(RING_SIZE), *block = NULL;
    unsigned int got;

    if ( posix_memalign(&block, STACK_SIZE, STACK_SIZE) || !ring ||
         depth > MAX_DEPTH )
        return 1;
    memset(block, 0, STACK_SIZE);
    base = (unsigned long)block;
    /* The chain, from the bottom of the primary stack upwards. */
    bottom = base + STACK_SIZE - sizeof(struct cpu_info);
    fp = 0;
    for ( i = 0; i < depth; i++ )
    {
        w = (unsigned long *)(bottom - 64 * (i + 1));
        w[0] = fp;
        w[1] = 0x1000 + 0x9000 * (i + 1);     /* spread over the text */
        fp = (unsigned long)w;
    }
    regs.rip = 0x2000;
    regs.rbp = fp;
    regs.rsp = fp - 64;
    RING_INIT_FLAT(&pc.ring, ring, RING_SIZE);
    profile_unwind_roots_init(&roots, 0x1000, 4 << 20);
    for ( i = 0; i < sizeof(root_at) / sizeof(root_at[0]); i++ )
        profile_unwind_add_root(&roots, root_at[i], root_at[i] + 0x100);
    pc.sampling = true;
    for ( i = 0; i < samples; i++ )
    {
        /* The consumer keeps up: the ring never fills. */
        pc.ring.cons = pc.ring.prod;
        sample_once();
    }
    got = ((struct rec *)pc.scratch)->nr_frames - 1;
    printf("%u\n", got);
    free(block);
    free(ring);
    return got == depth ? 0 : 1;
}
