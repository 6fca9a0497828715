/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-unwind.c: the frame-pointer walk on synthetic stacks.  A stack is
 * words STK[lo, hi) of mem[]; the words around it are guards, which the
 * walk must not read: they hold TRAP, and under valgrind they are made
 * inaccessible during the walk.
 */
#include "test.h"

#if defined(__has_include)
# if __has_include(<valgrind/memcheck.h>)
#  include <valgrind/memcheck.h>
#  define HAVE_MEMCHECK
# endif
#endif
#ifndef HAVE_MEMCHECK
# define VALGRIND_MAKE_MEM_NOACCESS(p, n) 0
# define VALGRIND_MAKE_MEM_DEFINED(p, n) 0
#endif

#define GUARD   32                  /* words each side */
#define WORDS   256                 /* stack words */
#define MAXIPS  16                  /* ips[] entries */
#define TRAP    0xffff82d0deadbeefUL
#define JUNK    0x1111111111111111UL
#define CANARY  0xcacacacacacacacaUL

/* Words from regs.rbp to regs.rip. */
#define EF_RIP  ((offsetof(struct cpu_user_regs, rip) - \
                  offsetof(struct cpu_user_regs, rbp)) / 8)

static uint64_t mem[GUARD + WORDS + GUARD] __attribute__((aligned(64)));
#define STK(i)  ((unsigned long)&mem[GUARD] + 8 * (unsigned long)(i))
#define RET(i)  (0xffff82d040200000UL + 16 * (i))

/* Links (saved rbp values), encoded. */
#define NUL     0UL
#define F(i)    ((unsigned long)(i) << 4 | 1)   /* STK(i) */
#define XF(i)   ((unsigned long)(i) << 4 | 2)   /* ~STK(i): regs.rbp */
#define ODD(i)  ((unsigned long)(i) << 4 | 3)   /* STK(i) + 1 */
#define GARBAGE 4UL                             /* 0x4141... */
#define BOTTOM  5UL     /* ~&regs->rbp of the exception frame at end */

/* The walk's end (STK(hi)), for BOTTOM. */
static unsigned long cur_end;

static unsigned long link(unsigned long l)
{
    switch ( l & 15 )
    {
    case 1: return STK(l >> 4);
    case 2: return ~STK(l >> 4);
    case 3: return STK(l >> 4) + 1;
    case 4: return 0x4141414141414141UL;
    case 5: return ~(cur_end + offsetof(struct cpu_user_regs, rbp));
    }
    return 0;
}

/* Roots for the cases: return addresses into RET(100)..RET(101). */
static const struct profile_unwind_roots roots = {
    .nr = 1, .root = { { RET(100) - 1, RET(101) } },
};

/*
 * The same root in a table indexed as Xen indexes its text (4 KiB chunks
 * of a 256 KiB window here), with decoys around it: the index must not
 * change a walk.  A root outside the window turns the index off.
 */
static struct profile_unwind_roots indexed, unindexed, fine, torn;
static const struct profile_unwind_roots *cur_roots = &roots;

/*
 * The chunk index itself: 128-byte chunks over [RET(4), RET(4) + 8192),
 * the root across chunks 11 and 12, a decoy in chunk 40; the cases' other
 * addresses fall in clear chunks, and RET(0..3) below the window.
 */
static void test_root_index(void)
{
    static const unsigned long sizes[] = { 1, 64, 65, 129, 0x2a1234 };
    struct profile_unwind_roots t;
    unsigned int i, bad = 0;

    profile_unwind_roots_init(&fine, RET(4), 8192);
    profile_unwind_add_root(&fine, RET(100) - 1, RET(101));
    profile_unwind_add_root(&fine, RET(4) + 40 * 128, RET(4) + 40 * 128 + 64);
    tap_ok(fine.shift == 7 && fine.span == 8192 &&
           fine.map == ((1ULL << 11) | (1ULL << 12) | (1ULL << 40)),
           "roots: the root's chunks (11, 12) and the decoy's (40) set, "
           "no other (map %#llx, shift %u)", (unsigned long long)fine.map,
           fine.shift);
    for ( i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++ )
    {
        profile_unwind_roots_init(&t, 0x1000, sizes[i]);
        bad += ((sizes[i] - 1) >> t.shift) >= 64 ||
               (t.shift && ((sizes[i] - 1) >> (t.shift - 1)) < 64);
    }
    tap_ok(!bad, "roots: the smallest chunks that make 64 cover the text "
           "(%u sizes wrong)", bad);
    profile_unwind_roots_init(&t, 0x1000, 0x1000);
    profile_unwind_add_root(&t, 0x1f00, 0x2000);
    bad = !t.span || t.map != 0xfULL << 60;     /* 64-byte chunks 60-63 */
    profile_unwind_add_root(&t, 0x1f00, 0x2001);
    bad += t.span != 0;
    tap_ok(!bad, "roots: one ending at the window's end is indexed, one a "
           "byte past it turns the index off");
}

static void make_indexed(void)
{
    static const unsigned long decoys[] = { 0x800, 0x2000, 0x30000 };
    unsigned int i;

    profile_unwind_roots_init(&indexed, RET(0), 256 << 10);
    for ( i = 0; i < 3; i++ )
        profile_unwind_add_root(&indexed, RET(0) + decoys[i],
                                RET(0) + decoys[i] + 64);
    profile_unwind_add_root(&indexed, RET(100) - 1, RET(101));
    profile_unwind_roots_init(&unindexed, RET(0), 256 << 10);
    profile_unwind_add_root(&unindexed, RET(100) - 1, RET(101));
    profile_unwind_add_root(&unindexed, RET(0) + (1 << 20), RET(0) + (2 << 20));
    /*
     * A table as no writer leaves it (what a reader racing a writer gone
     * wrong could see): a count past the array, a shift of 64 or more,
     * every chunk set.  The walk must cap the one (beyond the array are
     * the index's fields, read as a root that holds everything) and mask
     * the other (UBSan stops the ASan build on such a shift).
     */
    torn = roots;
    torn.nr = PROFILE_UNWIND_MAX_ROOTS + 3;
    torn.base = RET(4);
    torn.span = 8192;
    torn.shift = 70;
    torn.map = ~0ULL;
}

struct uframe {
    unsigned int at;                /* word of the saved rbp; 0 ends */
    bool regs;                      /* an exception frame (regs.rbp) */
    unsigned long link;
};

static const struct ucase {
    const char *desc;
    unsigned int lo, hi, max;       /* low, end (words), max */
    unsigned long bp;
    struct uframe f[5];
    unsigned int nexp, exp[5];      /* return addresses: RET(exp[i]) */
    unsigned int flags;
} ucases[] = {
#define T XEN_SYSCTL_PROFILE_F_TRUNCATED
#define B XEN_SYSCTL_PROFILE_F_BAD_FRAME
    { "clean chain of 4 frames ending with a null rbp", 0, 256, 16, F(10),
      { { 10, 0, F(20) }, { 20, 0, F(40) }, { 40, 0, F(60) },
        { 60, 0, NUL } }, 4, { 10, 20, 40, 60 }, 0 },
    { "chain to the bottom, garbage rbp 64 bytes from end", 0, 256, 16,
      F(200), { { 200, 0, F(230) }, { 230, 0, F(246) },
                { 246, 0, GARBAGE } }, 3, { 200, 230, 246 }, 0 },
    { "chain to the bottom, rbp past end", 0, 256, 16, F(200),
      { { 200, 0, F(254) }, { 254, 0, F(300) } }, 2, { 200, 254 }, 0 },
    { "garbage rbp 72 bytes from end: BAD_FRAME", 0, 256, 16, F(200),
      { { 200, 0, F(238) }, { 238, 0, GARBAGE } }, 2, { 200, 238 }, B },
    { "max 2 of 4 frames: TRUNCATED", 0, 256, 2, F(10),
      { { 10, 0, F(20) }, { 20, 0, F(40) }, { 40, 0, F(60) },
        { 60, 0, NUL } }, 2, { 10, 20 }, T },
    { "max 4 of 4 frames: not TRUNCATED", 0, 256, 4, F(10),
      { { 10, 0, F(20) }, { 20, 0, F(40) }, { 40, 0, F(60) },
        { 60, 0, NUL } }, 4, { 10, 20, 40, 60 }, 0 },
    { "a frame pointing to itself", 0, 256, 16, F(10),
      { { 10, 0, F(20) }, { 20, 0, F(20) } }, 2, { 10, 20 }, B },
    { "two frames pointing to each other", 0, 256, 16, F(10),
      { { 10, 0, F(20) }, { 20, 0, F(10) } }, 2, { 10, 20 }, B },
    { "a frame pointing 8 bytes up, into itself", 0, 256, 16, F(10),
      { { 10, 0, F(11) } }, 1, { 10 }, B },
    { "frame pointer below low", 16, 256, 16, F(20),
      { { 20, 0, F(8) }, { 8, 0, F(40) }, { 40, 0, NUL } }, 1, { 20 }, B },
    { "first frame pointer below low", 16, 256, 16, F(8),
      { { 8, 0, F(40) }, { 40, 0, NUL } }, 0, { 0 }, B },
    { "frame pointer above end", 0, 200, 16, F(20),
      { { 20, 0, F(220) }, { 220, 0, NUL } }, 1, { 20 }, B },
    { "misaligned frame pointer", 0, 256, 16, F(20),
      { { 20, 0, ODD(40) }, { 40, 0, NUL } }, 1, { 20 }, B },
    { "a frame at end - 16 is read", 0, 256, 16, F(200),
      { { 200, 0, F(254) }, { 254, 0, NUL } }, 2, { 200, 254 }, 0 },
    { "a frame straddling end (rbp at end - 8) is not", 0, 256, 16, F(200),
      { { 200, 0, F(255) }, { 255, 0, NUL } }, 1, { 200 }, B },
    { "exception frame: rip recovered, walk goes on from regs.rbp",
      0, 256, 16, F(10), { { 10, 0, F(20) }, { 20, 0, XF(40) },
                           { 40, 1, F(80) }, { 80, 0, NUL } },
      4, { 10, 20, 40, 80 }, 0 },
    { "an inverted first frame pointer", 0, 256, 16, XF(40),
      { { 40, 1, F(80) }, { 80, 0, NUL } }, 2, { 40, 80 }, 0 },
    { "exception frame whose rip is at end - 8", 0, 256, 16, F(200),
      { { 200, 0, XF(243) }, { 243, 1, NUL } }, 2, { 200, 243 }, 0 },
    { "exception frame whose rip is at end: rejected", 0, 256, 16, F(200),
      { { 200, 0, XF(244) }, { 244, 1, NUL } }, 1, { 200 }, B },
    { "exception frame below low", 16, 256, 16, F(20),
      { { 20, 0, XF(4) }, { 4, 1, NUL } }, 1, { 20 }, B },
    { "exception frame whose rbp points back down", 0, 256, 16, F(20),
      { { 20, 0, XF(40) }, { 40, 1, F(20) } }, 2, { 20, 40 }, B },
    { "max 0 with a frame: TRUNCATED", 0, 256, 0, F(10),
      { { 10, 0, NUL } }, 0, { 0 }, T },
    { "max 0, null rbp: no flags", 0, 256, 0, NUL, { { 0 } }, 0, { 0 }, 0 },
    { "null rbp: nothing, no flags", 0, 256, 16, NUL, { { 0 } }, 0, { 0 }, 0 },
    { "ends at the exception frame at the bottom, far below it: not BAD_FRAME",
      0, 256, 16, F(10), { { 10, 0, F(20) }, { 20, 0, BOTTOM } },
      2, { 10, 20 }, 0 },
    { "ends at another inverted pointer far below: BAD_FRAME",
      0, 256, 16, F(10), { { 10, 0, F(20) }, { 20, 0, XF(300) } },
      2, { 10, 20 }, B },
    { "an IST-like frame linked to the bottom frame is read", 0, 256, 16,
      F(200), { { 200, 0, F(254) }, { 254, 0, BOTTOM } }, 2, { 200, 254 }, 0 },
    { "a return address into a root ends the walk: nothing stale above",
      0, 256, 16, F(10), { { 10, 0, F(100) }, { 100, 0, F(120) },
                           { 120, 0, F(140) }, { 140, 0, GARBAGE } },
      2, { 10, 100 }, 0 },
    { "a frame inside the saved registers of an exception frame is not "
      "taken", 0, 256, 16, F(10), { { 10, 0, XF(40) }, { 40, 1, F(50) },
                                    { 50, 0, F(80) }, { 80, 0, NUL } },
      2, { 10, 40 }, B },
    { "the frame right above an exception frame is", 0, 256, 16, F(10),
      { { 10, 0, XF(40) }, { 40, 1, F(57) }, { 57, 0, NUL } },
      3, { 10, 40, 57 }, 0 },
    { "a root as first return address", 0, 256, 16, F(100),
      { { 100, 0, F(120) }, { 120, 0, NUL } }, 1, { 100 }, 0 },
#undef T
#undef B
};

/* Build the stack of c, walk it with guards around [low, end). */
static unsigned int walk(const struct ucase *c, uint64_t *ips,
                         unsigned int *flags)
{
    unsigned long low = STK(c->lo), end = STK(c->hi);
    unsigned long top = (unsigned long)&mem[ARRAY_SIZE(mem)];
    const struct uframe *f;
    unsigned int i, n;

    cur_end = end;
    for ( i = 0; i < ARRAY_SIZE(mem); i++ )
        mem[i] = i < GUARD || i >= GUARD + WORDS ? TRAP : JUNK;
    for ( f = c->f; f->at; f++ )
    {
        mem[GUARD + f->at] = link(f->link);
        mem[GUARD + f->at + (f->regs ? EF_RIP : 1)] = RET(f->at);
    }
    for ( i = 0; i < MAXIPS + 4; i++ )
        ips[i] = CANARY;

    (void)VALGRIND_MAKE_MEM_NOACCESS(mem, low - (unsigned long)mem);
    (void)VALGRIND_MAKE_MEM_NOACCESS((void *)end, top - end);
    n = profile_unwind(link(c->bp), low, end, cur_roots, ips, c->max, flags);
    (void)VALGRIND_MAKE_MEM_DEFINED(mem, sizeof(mem));

    return n;
}

void test_unwind(void)
{
    uint64_t ips[MAXIPS + 4];
    const struct ucase *c;
    unsigned int i, j, n, flags;
    bool ok;

    tap_ok(EF_RIP == 12, "cpu_user_regs: rip is 12 words above rbp");
    make_indexed();
    test_root_index();
    tap_ok(indexed.span && indexed.map && indexed.nr == 4 && !unindexed.span &&
           unindexed.nr == 2,
           "roots: indexed in chunks of the text; one outside turns the "
           "index off");

    for ( i = 0; i < ARRAY_SIZE(ucases); i++ )
    {
        c = &ucases[i];
        ok = true;
        /*
         * The hand-made table, the indexed one, the one without index,
         * the finely indexed one, a torn one: the same walk.
         */
        for ( cur_roots = &roots; ok && cur_roots; )
        {
            flags = 0;
            n = walk(c, ips, &flags);
            ok = n == c->nexp && flags == c->flags;
            for ( j = 0; j < MAXIPS + 4; j++ )
                ok = ok && ips[j] == (j < n ? RET(c->exp[j]) : CANARY);
            cur_roots = cur_roots == &roots ? &indexed :
                        cur_roots == &indexed ? &unindexed :
                        cur_roots == &unindexed ? &fine :
                        cur_roots == &fine ? &torn : NULL;
        }
        if ( !tap_ok(ok, "unwind: %s (5 root tables)", c->desc) )
            tap_diag("got %u addresses, flags %#x", n, flags);
    }
    cur_roots = &roots;
}
