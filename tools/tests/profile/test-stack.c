/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-stack.c: the walk of an interrupted Xen context (profile_walk())
 * on real mapped memory laid out as Xen's stack blocks, where every byte
 * the walk must not read is unreadable.
 *
 * Five STACK_SIZE blocks, aligned to STACK_SIZE: a guest's memory, the
 * stacks of a neighbouring pCPU, the stacks of "this" pCPU, another
 * neighbour, more guest memory.  Only this pCPU's primary stack (pages 6
 * and 7) and IST stacks (pages 1 to 4) are ever mapped; the shadow-stack
 * pages (0 and 5), the neighbours and the guest are PROT_NONE, so a read
 * there is a SIGSEGV, which ends the test with a short plan.  During each
 * walk, everything of this pCPU's block outside [sp, bottom of its stack)
 * is made unreadable as well: with mprotect() for whole pages and, under
 * AddressSanitizer, poisoned to the byte.  Every word of the mapped stacks
 * holds a hostile frame pointer: the next word up, a pointer (plain or
 * inverted) into an unreadable page, or into another of the pCPU's
 * stacks.
 *
 * Under the old rule (bounds from the interrupted %rsp alone, as
 * get_stack_trace_bottom() computes them), the first guest %rsp crashes
 * this test.
 */
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test.h"

#if defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define HAVE_ASAN
# endif
#endif
#if defined(__SANITIZE_ADDRESS__)
# define HAVE_ASAN
#endif
#ifdef HAVE_ASAN
# include <sanitizer/asan_interface.h>
#else
# define ASAN_POISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
# define ASAN_UNPOISON_MEMORY_REGION(p, n) ((void)(p), (void)(n))
#endif

#define BLOCKS      5
#define THIS        2                   /* this pCPU's block */
#define MAXF        64

int8_t opt_fred;

static uint8_t *area;                   /* BLOCKS * STACK_SIZE */
static unsigned long base;              /* this pCPU's block */

static bool stack_page(unsigned int page)
{
    return (page >= 1 && page <= 4) || page >= 6;
}

/* Map the stack pages of this pCPU's block readable (rw), or not. */
static void protect_block(bool rw)
{
    unsigned int p;

    for ( p = 0; p < 8; p++ )
        if ( stack_page(p) )
            mprotect((void *)(base + p * PAGE_SIZE), PAGE_SIZE,
                     rw ? PROT_READ | PROT_WRITE : PROT_NONE);
}

/*
 * The bottom of IST stack page p: its exception frame, a cpu_user_regs
 * (with FRED, #MC's and #DF's frame has struct fred_info above it).
 */
static unsigned long ist_bottom(unsigned int p)
{
    return base + (p + 1) * PAGE_SIZE - sizeof(struct cpu_user_regs) -
           (opt_fred == 1 ? sizeof(struct fred_info) : 0);
}

/* The bottom of the stack holding sp, or 0: what the rule must answer. */
static unsigned long expected_bottom(unsigned long sp)
{
    unsigned long off = sp - base, bottom;
    unsigned int page;

    if ( sp < base || off >= STACK_SIZE )
        return 0;
    page = off / PAGE_SIZE;
    if ( !stack_page(page) )
        return 0;
    bottom = page >= 6 ? base + STACK_SIZE - sizeof(struct cpu_info)
                       : ist_bottom(page);
    return sp <= bottom ? bottom : 0;
}

/* Pseudo-random, reproducible. */
static uint64_t rnd_state = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}

/* A hostile frame pointer for the word at a. */
static unsigned long hostile(unsigned long a)
{
    unsigned long guest = (unsigned long)area + (rnd() % PAGE_SIZE) * 8;
    unsigned long other = base + (rnd() % (STACK_SIZE / 8)) * 8;

    switch ( rnd() % 8 )
    {
    case 0: return a + 16;
    case 1: return a + 8;
    case 2: return ~(a + 16);
    case 3: return guest;
    case 4: return ~guest;
    case 5: return other;
    case 6: return ~other;
    default: return base + STACK_SIZE + (rnd() % PAGE_SIZE) * 8;
    }
}

static void fill_stacks(void)
{
    unsigned int p;
    unsigned long a;

    for ( p = 0; p < 8; p++ )
        if ( stack_page(p) )
            for ( a = base + p * PAGE_SIZE; a < base + (p + 1) * PAGE_SIZE;
                  a += 8 )
                *(unsigned long *)a = hostile(a);
}

/*
 * One walk from sp, bp with everything outside [sp, bottom) unreadable.
 * Returns false if a recorded address or the flags are wrong.
 */
static bool walk_one(unsigned long sp, unsigned long bp, unsigned int *nf,
                     unsigned int *flags)
{
    unsigned long bottom = expected_bottom(sp);
    uint64_t ips[MAXF];
    unsigned int n, i;
    unsigned long lo = 0, hi = 0;

    *flags = 0;
    if ( bottom )
    {
        /* Only the pages of [sp, bottom) stay mapped. */
        protect_block(false);
        lo = sp & ~(PAGE_SIZE - 1);
        hi = (bottom + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
        mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE);
        ASAN_POISON_MEMORY_REGION((void *)lo, sp - lo);
        ASAN_POISON_MEMORY_REGION((void *)bottom, hi - bottom);
    }
    n = profile_walk(0, sp, bp, base, NULL, ips, MAXF, flags);
    if ( bottom )
    {
        ASAN_UNPOISON_MEMORY_REGION((void *)lo, hi - lo);
        protect_block(true);
    }

    *nf = n;
    if ( !bottom )
        return n == 0 && *flags == XEN_SYSCTL_PROFILE_F_NO_STACK;
    if ( *flags & XEN_SYSCTL_PROFILE_F_NO_STACK )
        return false;
    for ( i = 0; i < n; i++ )
        if ( !ips[i] )
            return false;
    return n <= MAXF;
}

static void on_segv(int sig)
{
    static const char msg[] =
        "not ok - the walk read an unreadable page (SIGSEGV)\n";

    (void)sig;
    if ( write(1, msg, sizeof(msg) - 1) < 0 )
        _exit(2);
    _exit(1);
}

/* Sweep sp over the five blocks, every slot, with each kind of bp. */
static void sweep(void)
{
    unsigned long lo = base - 2 * STACK_SIZE, hi = base + 3 * STACK_SIZE;
    unsigned long sp, accepted = 0, refused = 0, bad = 0, walked = 0;
    unsigned int kind, nf, flags;
    unsigned long kinds[2][16] = { { 0 } };

    for ( sp = lo; sp < hi; sp += 8 )
    {
        unsigned long exp = expected_bottom(sp);
        unsigned long end;
        bool ok = profile_stack_bounds(sp, base, &end);

        if ( ok != !!exp || (ok && end != exp) )
            bad++;
        if ( ok )
            accepted++;
        else
            refused++;
        kinds[ok][sp < base || sp >= base + STACK_SIZE ? 8
                  : (sp - base) / PAGE_SIZE]++;

        for ( kind = 0; kind < 3; kind++ )
        {
            unsigned long bp = kind == 0 ? sp : kind == 1 ? ~(sp + 8)
                                                          : hostile(sp);

            if ( !walk_one(sp, bp, &nf, &flags) )
                bad++;
            walked++;
        }
    }

    tap_ok(!bad, "sweep of sp over 5 stack blocks (%lu slots, %lu walks): "
           "bounds and walks as the rule says", (hi - lo) / 8, walked);
    if ( bad )
        tap_diag("%lu wrong", bad);
    tap_ok(accepted == 4 * ((ist_bottom(1) - base - PAGE_SIZE) / 8 + 1) +
           (2 * PAGE_SIZE - sizeof(struct cpu_info)) / 8 + 1,
           "sweep%s: exactly the slots of this pCPU's 4 IST stacks and its "
           "primary stack are accepted (%lu)",
           opt_fred == 1 ? " with FRED" : "", accepted);
    tap_ok(!kinds[1][0] && !kinds[1][5] && !kinds[1][8],
           "sweep: no shadow-stack, neighbour or guest slot is accepted");
    (void)refused;
}

/* The cases the issue names, one by one. */
static void cases(void)
{
    unsigned long guest = (unsigned long)area + 100 * 8;
    unsigned long nb = base - STACK_SIZE;          /* a neighbour's block */
    uint64_t ips[MAXF];
    unsigned int flags, n, p;
    bool ok;

    /* Stack pointers outside this pCPU's stacks: nothing is read. */
    const struct {
        unsigned long sp, bp;
        const char *desc;
    } foreign[] = {
        { guest, guest,
          "rsp = rbp = a guest address (SYSCALL stub, before SYSRET)" },
        { nb + 7 * PAGE_SIZE + 512, nb + 7 * PAGE_SIZE + 512,
          "rsp in the right page of a neighbouring pCPU's primary stack" },
        { base + 5 * PAGE_SIZE + 64, base + 6 * PAGE_SIZE + 64,
          "rsp in the primary shadow stack" },
    };

    for ( p = 0; p < ARRAY_SIZE(foreign); p++ )
    {
        flags = 0;
        n = profile_walk(0, foreign[p].sp, foreign[p].bp, base, NULL, ips,
                         MAXF, &flags);
        tap_ok(!n && flags == XEN_SYSCTL_PROFILE_F_NO_STACK,
               "%s: nothing read, NO_STACK", foreign[p].desc);
    }

    for ( p = 1; p <= 4; p++ )
    {
        unsigned long sp = base + p * PAGE_SIZE + 256;
        unsigned long *w = (unsigned long *)sp;

        /* A frame linking into the guest, then into a neighbour. */
        w[0] = guest;
        w[1] = 0xffff82d040201234UL;
        flags = 0;
        ok = walk_one(sp, sp, &n, &flags);
        tap_ok(ok && n == 1,
               "rsp and rbp in IST stack page %u, a frame linking to a guest "
               "address: one frame, nothing else read", p);
        w[0] = ~(nb + p * PAGE_SIZE + 256);
        flags = 0;
        ok = walk_one(sp, sp, &n, &flags);
        tap_ok(ok && n == 1,
               "IST stack page %u, inverted link into the neighbour's: one "
               "frame, nothing else read", p);
        w[0] = ~(ist_bottom(p) + offsetof(struct cpu_user_regs, rbp));
        flags = 0;
        ok = walk_one(sp, sp, &n, &flags);
        tap_ok(ok && n == 1 && !(flags & XEN_SYSCTL_PROFILE_F_BAD_FRAME),
               "IST stack page %u, a walk ending at the IST frame: not "
               "BAD_FRAME", p);
    }
    fill_stacks();

    /* Interrupted inside a root (idle_loop): nothing is walked. */
    {
        static const struct profile_unwind_roots r = {
            .nr = 1, .root = { { 0xffff82d040300000UL, 0xffff82d040300100UL } },
        };
        unsigned long sp = base + 7 * PAGE_SIZE;
        unsigned long *w = (unsigned long *)sp;

        w[0] = sp + 64;                 /* a stale frame above */
        w[1] = 0xffff82d040201234UL;
        flags = 0;
        n = profile_walk(0xffff82d040300040UL, sp, sp, base, &r, ips, MAXF,
                         &flags);
        tap_ok(!n && !flags, "rip inside a root: no frame walked above it");
        flags = 0;
        n = profile_walk(0xffff82d040300100UL, sp, sp, base, &r, ips, MAXF,
                         &flags);
        tap_ok(n >= 1, "rip just past the root: the walk goes on");
        fill_stacks();
    }
}

void test_stack(void)
{
    void *m;
    size_t len = (BLOCKS + 1) * STACK_SIZE;

    signal(SIGSEGV, on_segv);
    m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if ( !tap_ok(m != MAP_FAILED, "map %zu bytes for the stack blocks", len) )
        return;
    area = (uint8_t *)(((unsigned long)m + STACK_SIZE - 1) &
                       ~(STACK_SIZE - 1));
    base = (unsigned long)area + THIS * STACK_SIZE;
    protect_block(true);
    fill_stacks();

    cases();
    sweep();
    /* FRED: #MC's and #DF's frames carry struct fred_info above. */
    opt_fred = 1;
    sweep();
    opt_fred = 0;

    munmap(m, len);
    signal(SIGSEGV, SIG_DFL);
}
