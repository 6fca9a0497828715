/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-stack.c: the walk of an interrupted Xen context (profile_walk())
 * on real mapped memory laid out as Xen on Arm's stacks, where every byte
 * the walk must not read is unreadable.
 *
 * Five STACK_SIZE blocks, aligned to STACK_SIZE: a guest's memory,
 * another vCPU's stack, the stack "this" sample runs on, another stack,
 * more guest memory.  Only this block is ever mapped; the others are
 * PROT_NONE, so a read there is a SIGSEGV, which ends the test with a
 * short plan.  During each walk, everything of this block outside
 * [sp, bottom of the stack) is made unreadable as well: with mprotect()
 * for whole pages and, under AddressSanitizer, poisoned to the byte,
 * which covers the struct cpu_info at the top (the guest's registers).
 * Every word of the stack holds a hostile frame pointer: the next word
 * up, an inverted pointer, a pointer into an unreadable block, or into
 * cpu_info.
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
#define THIS        2                   /* the sampling code's block */
#define MAXF        64
#define RET_ADDR    0x00000a0000201234UL

static uint8_t *area;                   /* BLOCKS * STACK_SIZE */
static unsigned long base;              /* this block */

static unsigned long stack_end(void)
{
    return base + STACK_SIZE - sizeof(struct cpu_info);
}

static void protect_block(bool rw)
{
    mprotect((void *)base, STACK_SIZE, rw ? PROT_READ | PROT_WRITE
                                          : PROT_NONE);
}

/* The bottom of the stack holding sp, or 0: what the rule must answer. */
static unsigned long expected_bottom(unsigned long sp)
{
    return sp >= base && sp <= stack_end() ? stack_end() : 0;
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
    unsigned long other = base - STACK_SIZE + (rnd() % (STACK_SIZE / 8)) * 8;
    unsigned long regs = stack_end() +
                         (rnd() % (sizeof(struct cpu_info) / 8)) * 8;

    switch ( rnd() % 8 )
    {
    case 0: return a + 16;
    case 1: return a + 8;
    case 2: return ~(a + 16);
    case 3: return guest;
    case 4: return ~guest;
    case 5: return other;
    case 6: return regs;
    default: return base + STACK_SIZE + (rnd() % PAGE_SIZE) * 8;
    }
}

static void fill_stack(void)
{
    unsigned long a;

    for ( a = base; a < base + STACK_SIZE; a += 8 )
        *(unsigned long *)a = hostile(a);
}

/*
 * One walk from sp, fp with everything outside [sp, bottom) unreadable.
 * Returns false if a recorded address or the flags are wrong.
 */
static bool walk_one(unsigned long sp, unsigned long fp,
                     const struct profile_unwind_roots *r, unsigned int *nf,
                     unsigned int *flags)
{
    unsigned long bottom = expected_bottom(sp);
    uint64_t ips[MAXF];
    unsigned int n, i;
    unsigned long lo = 0, hi = 0;

    *flags = 0;
    if ( bottom )
    {
        protect_block(false);
        lo = sp & ~(PAGE_SIZE - 1);
        hi = (bottom + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
        mprotect((void *)lo, hi - lo, PROT_READ | PROT_WRITE);
        ASAN_POISON_MEMORY_REGION((void *)lo, sp - lo);
        ASAN_POISON_MEMORY_REGION((void *)bottom, hi - bottom);
    }
    n = profile_walk(0, 0, sp, fp, base, r, ips, MAXF, flags);
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

/* Sweep sp over the five blocks, every slot, with each kind of fp. */
static void sweep(void)
{
    unsigned long lo = base - 2 * STACK_SIZE, hi = base + 3 * STACK_SIZE;
    unsigned long sp, accepted = 0, bad = 0, walked = 0, foreign = 0;
    unsigned int kind, nf, flags;

    for ( sp = lo; sp < hi; sp += 8 )
    {
        unsigned long exp = expected_bottom(sp), end;
        bool ok = profile_stack_bounds(sp, base, &end);

        if ( ok != !!exp || (ok && end != exp) )
            bad++;
        accepted += ok;
        foreign += ok && (sp < base || sp > stack_end());
        for ( kind = 0; kind < 3; kind++ )
        {
            unsigned long fp = kind == 0 ? sp : kind == 1 ? ~(sp + 16)
                                                          : hostile(sp);

            if ( !walk_one(sp, fp, NULL, &nf, &flags) )
                bad++;
            walked++;
        }
    }

    tap_ok(!bad, "sweep of sp over 5 stack blocks (%lu slots, %lu walks): "
           "bounds and walks as the rule says", (hi - lo) / 8, walked);
    if ( bad )
        tap_diag("%lu wrong", bad);
    tap_ok(accepted == (STACK_SIZE - sizeof(struct cpu_info)) / 8 + 1,
           "sweep: exactly the slots of this stack below its cpu_info are "
           "accepted (%lu)", accepted);
    tap_ok(!foreign, "sweep: no slot of another stack, of cpu_info or of "
           "the guest is accepted");
}

/* The cases one by one. */
static void cases(void)
{
    unsigned long guest = (unsigned long)area + 100 * 8;
    unsigned long nb = base - STACK_SIZE;          /* another vCPU's stack */
    uint64_t ips[MAXF];
    unsigned int flags, n, p;
    bool ok;

    const struct {
        unsigned long sp, fp;
        const char *desc;
    } foreign[] = {
        { guest, guest, "sp = fp = a guest address" },
        { nb + 7 * PAGE_SIZE + 512, nb + 7 * PAGE_SIZE + 512,
          "sp in another vCPU's stack" },
        { stack_end() + 8, stack_end() + 16,
          "sp in cpu_info (the guest's registers)" },
        { base + STACK_SIZE, base + STACK_SIZE, "sp just past the block" },
        { base - 8, base, "sp just below the block" },
    };

    for ( p = 0; p < ARRAY_SIZE(foreign); p++ )
    {
        flags = 0;
        n = profile_walk(0, 0, foreign[p].sp, foreign[p].fp, base, NULL, ips,
                         MAXF, &flags);
        tap_ok(!n && flags == XEN_SYSCTL_PROFILE_F_NO_STACK,
               "%s: nothing read, NO_STACK", foreign[p].desc);
    }

    {
        unsigned long sp = base + 5 * PAGE_SIZE + 256;
        unsigned long *w = (unsigned long *)sp;
        const struct {
            unsigned long link;
            const char *desc;
        } links[] = {
            { guest, "a guest address" },
            { nb + 5 * PAGE_SIZE + 272, "the same place of another stack" },
            { stack_end(), "cpu_info" },
            { stack_end() - 8, "a record straddling cpu_info" },
            { ~(sp + 64), "an inverted address above" },
        };

        for ( p = 0; p < ARRAY_SIZE(links); p++ )
        {
            w[0] = links[p].link;
            w[1] = RET_ADDR;
            flags = 0;
            ok = walk_one(sp, sp, NULL, &n, &flags);
            tap_ok(ok && n == 1, "a record linking to %s: one frame, "
                   "nothing else read", links[p].desc);
        }
        fill_stack();
    }

    /*
     * Xen's layout at a guest exception: the outermost C record (of
     * do_trap_irq(), say) sits just below the guest's frame, with the
     * guest's x29 (here: pointing into the guest's registers, as a
     * hostile guest may arrange) and a return address into the guest
     * vector, a root.  The walk ends there, reads nothing above it, and
     * it is not BAD_FRAME.
     */
    {
        static struct profile_unwind_roots r;
        unsigned long outer = stack_end() - 32, inner = outer - 128;
        unsigned long *o = (unsigned long *)outer, *i = (unsigned long *)inner;

        profile_unwind_roots_init(&r, 0x00000a0000200000UL, 1 << 20);
        profile_unwind_add_root(&r, 0x00000a0000210000UL,
                                0x00000a0000210100UL);
        i[0] = outer;
        i[1] = 0x00000a0000205000UL;
        o[0] = stack_end() + offsetof(struct cpu_user_regs, fp);
        o[1] = 0x00000a0000210044UL;        /* after a bl in the vector */
        flags = 0;
        ok = walk_one(inner - 64, inner, &r, &n, &flags);
        tap_ok(ok && n == 2 && !flags, "guest exception: the walk ends at "
               "the guest vector, the guest's x29 is not followed (%u "
               "frames, flags %#x)", n, flags);
        flags = 0;
        ok = walk_one(inner - 64, inner, NULL, &n, &flags);
        tap_ok(ok && n == 2, "... and without the root, it is still not "
               "read (the record it points to straddles the bottom)");
        n = profile_walk(0x00000a0000210010UL, 0, inner - 64, inner, base,
                         &r, ips, MAXF, &flags);
        tap_ok(!n, "interrupted inside the root itself: nothing walked");

        /*
         * Interrupted in a function the vector called, before its frame
         * record (or after its epilogue): x29 is the guest's, pointing at
         * a forged record in the stack; lr returns into the vector.
         */
        i[0] = inner + 16;
        i[1] = 0x00000a0000206666UL;        /* a forged return address */
        flags = 0;
        n = profile_walk(0x00000a0000205000UL, 0x00000a0000210044UL,
                         inner - 64, inner, base, &r, ips, MAXF, &flags);
        tap_ok(n == 1 && ips[0] == 0x00000a0000210044UL && !flags,
               "lr into the guest vector: the frame is lr alone, the "
               "guest's x29 is not followed (%u frames)", n);
        flags = 0;
        n = profile_walk(0x00000a0000205000UL, 0x00000a0000210044UL,
                         inner - 64, inner, base, &r, ips, 0, &flags);
        tap_ok(!n && flags == XEN_SYSCTL_PROFILE_F_TRUNCATED,
               "... with no room for it: TRUNCATED");
        flags = 0;
        n = profile_walk(0x00000a0000205000UL, 0x00000a0000210104UL,
                         inner - 64, inner, base, &r, ips, MAXF, &flags);
        tap_ok(n >= 1 && ips[0] == 0x00000a0000206666UL,
               "lr just past the vector (its bl would be the word after "
               "it): the walk follows x29 as usual");
        fill_stack();
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
    fill_stack();

    cases();
    sweep();

    munmap(m, len);
    signal(SIGSEGV, SIG_DFL);
}
