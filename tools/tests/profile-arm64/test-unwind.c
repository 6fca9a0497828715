/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test-unwind.c: the AArch64 frame-record walk on synthetic stacks.  A
 * stack is words STK[lo, hi) of mem[]; the words around it are guards,
 * which the walk must not read: they hold TRAP, and under valgrind they
 * are made inaccessible during the walk.  The cases of x86's suite that
 * carry over (corrupt chains, bounds, the depth cap), then Arm's own: no
 * exception-frame link exists, and above a guest vector's frame is the
 * guest's x29.
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
#define TRAP    0x00000a0000deadbeUL
#define JUNK    0x1111111111111111UL
#define CANARY  0xcacacacacacacacaUL

static uint64_t mem[GUARD + WORDS + GUARD] __attribute__((aligned(64)));
#define STK(i)  ((unsigned long)&mem[GUARD] + 8 * (unsigned long)(i))
#define RET(i)  (0x00000a0000200000UL + 16 * (i))

/* Links (saved x29 values), encoded. */
#define NUL     0UL
#define F(i)    ((unsigned long)(i) << 4 | 1)   /* STK(i) */
#define INV(i)  ((unsigned long)(i) << 4 | 2)   /* ~STK(i): x86's shape */
#define ODD(i)  ((unsigned long)(i) << 4 | 3)   /* STK(i) + 4 */
#define GARBAGE 4UL                             /* 0x4141... */

static unsigned long link(unsigned long l)
{
    switch ( l & 15 )
    {
    case 1: return STK(l >> 4);
    case 2: return ~STK(l >> 4);
    case 3: return STK(l >> 4) + 4;
    case 4: return 0x4141414141414141UL;
    }
    return 0;
}

/*
 * One root, a guest vector: [RET(100) - 4, RET(100) + 12), so that the
 * return address RET(100) is after a bl inside it and RET(101) (its bl
 * would be the word past its end) is not.  The same in a table indexed
 * as Xen indexes its text, with decoys.
 */
static const struct profile_unwind_roots roots = {
    .nr = 1, .root = { { RET(100) - 4, RET(100) + 12 } },
};
static struct profile_unwind_roots indexed;
static const struct profile_unwind_roots *cur_roots = &roots;

static void make_indexed(void)
{
    static const unsigned long decoys[] = { 0x800, 0x2000, 0x30000 };
    unsigned int i;

    profile_unwind_roots_init(&indexed, RET(0), 256 << 10);
    for ( i = 0; i < 3; i++ )
        profile_unwind_add_root(&indexed, RET(0) + decoys[i],
                                RET(0) + decoys[i] + 64);
    profile_unwind_add_root(&indexed, RET(100) - 4, RET(100) + 12);
}

struct uframe {
    unsigned int at;                /* word of the saved x29; 0 ends */
    unsigned long link;
};

static const struct ucase {
    const char *desc;
    unsigned int lo, hi, max;       /* low, end (words), max */
    unsigned long fp;
    struct uframe f[5];
    unsigned int nexp, exp[5];      /* return addresses: RET(exp[i]) */
    unsigned int flags;
} ucases[] = {
#define T XEN_SYSCTL_PROFILE_F_TRUNCATED
#define B XEN_SYSCTL_PROFILE_F_BAD_FRAME
    { "clean chain of 4 records ending with a null x29 (a new vCPU)",
      0, 256, 16, F(10),
      { { 10, F(20) }, { 20, F(40) }, { 40, F(60) }, { 60, NUL } },
      4, { 10, 20, 40, 60 }, 0 },
    { "chain to the bottom, garbage x29 64 bytes from end", 0, 256, 16,
      F(200), { { 200, F(230) }, { 230, F(246) }, { 246, GARBAGE } },
      3, { 200, 230, 246 }, 0 },
    { "chain to the bottom, x29 past end", 0, 256, 16, F(200),
      { { 200, F(254) }, { 254, F(300) } }, 2, { 200, 254 }, 0 },
    { "garbage x29 72 bytes from end: BAD_FRAME", 0, 256, 16, F(200),
      { { 200, F(238) }, { 238, GARBAGE } }, 2, { 200, 238 }, B },
    { "max 2 of 4 records: TRUNCATED", 0, 256, 2, F(10),
      { { 10, F(20) }, { 20, F(40) }, { 40, F(60) }, { 60, NUL } },
      2, { 10, 20 }, T },
    { "max 4 of 4 records: not TRUNCATED", 0, 256, 4, F(10),
      { { 10, F(20) }, { 20, F(40) }, { 40, F(60) }, { 60, NUL } },
      4, { 10, 20, 40, 60 }, 0 },
    { "max 0 with a record: TRUNCATED", 0, 256, 0, F(10),
      { { 10, NUL } }, 0, { 0 }, T },
    { "null x29: nothing, no flags", 0, 256, 16, NUL, { { 0 } }, 0, { 0 }, 0 },
    { "a record pointing to itself", 0, 256, 16, F(10),
      { { 10, F(20) }, { 20, F(20) } }, 2, { 10, 20 }, B },
    { "two records pointing to each other", 0, 256, 16, F(10),
      { { 10, F(20) }, { 20, F(10) } }, 2, { 10, 20 }, B },
    { "a record pointing 8 bytes up, into itself", 0, 256, 16, F(10),
      { { 10, F(11) } }, 1, { 10 }, B },
    { "x29 below low", 16, 256, 16, F(20),
      { { 20, F(8) }, { 8, F(40) }, { 40, NUL } }, 1, { 20 }, B },
    { "first x29 below low", 16, 256, 16, F(8),
      { { 8, F(40) }, { 40, NUL } }, 0, { 0 }, B },
    { "x29 above end", 0, 200, 16, F(20),
      { { 20, F(220) }, { 220, NUL } }, 1, { 20 }, B },
    { "misaligned x29", 0, 256, 16, F(20),
      { { 20, ODD(40) }, { 40, NUL } }, 1, { 20 }, B },
    { "a record at end - 16 is read", 0, 256, 16, F(200),
      { { 200, F(254) }, { 254, NUL } }, 2, { 200, 254 }, 0 },
    { "a record straddling end (x29 at end - 8) is not", 0, 256, 16, F(200),
      { { 200, F(255) }, { 255, NUL } }, 1, { 200 }, B },
    { "an inverted x29 (x86's exception-frame link) is not followed",
      0, 256, 16, F(10), { { 10, F(20) }, { 20, INV(40) }, { 40, NUL } },
      2, { 10, 20 }, B },
    { "an inverted first x29 is not followed", 0, 256, 16, INV(40),
      { { 40, NUL } }, 0, { 0 }, B },
    { "a return address into a guest vector ends the walk: the guest's "
      "x29 above it (a stack address) is not followed", 0, 256, 16, F(10),
      { { 10, F(100) }, { 100, F(120) }, { 120, F(140) }, { 140, NUL } },
      2, { 10, 100 }, 0 },
    { "... nor a guest x29 that is garbage", 0, 256, 16, F(10),
      { { 10, F(100) }, { 100, GARBAGE } }, 2, { 10, 100 }, 0 },
    { "a return address just past the root (a bl at its end + 4) does not",
      0, 256, 16, F(10), { { 10, F(101) }, { 101, F(120) }, { 120, NUL } },
      3, { 10, 101, 120 }, 0 },
    { "a root as first return address", 0, 256, 16, F(100),
      { { 100, F(120) }, { 120, NUL } }, 1, { 100 }, 0 },
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

    for ( i = 0; i < ARRAY_SIZE(mem); i++ )
        mem[i] = i < GUARD || i >= GUARD + WORDS ? TRAP : JUNK;
    for ( f = c->f; f->at; f++ )
    {
        mem[GUARD + f->at] = link(f->link);
        mem[GUARD + f->at + 1] = RET(f->at);
    }
    for ( i = 0; i < MAXIPS + 4; i++ )
        ips[i] = CANARY;

    (void)VALGRIND_MAKE_MEM_NOACCESS(mem, low - (unsigned long)mem);
    (void)VALGRIND_MAKE_MEM_NOACCESS((void *)end, top - end);
    n = profile_unwind(link(c->fp), low, end, cur_roots, ips, c->max, flags);
    (void)VALGRIND_MAKE_MEM_DEFINED(mem, sizeof(mem));

    return n;
}

void test_unwind(void)
{
    uint64_t ips[MAXIPS + 4];
    const struct ucase *c;
    unsigned int i, j, n = 0, flags = 0;
    bool ok;

    make_indexed();
    tap_ok(indexed.span && indexed.nr == 4,
           "roots: the guest vector and 3 decoys, indexed");
    for ( i = 0; i < ARRAY_SIZE(ucases); i++ )
    {
        c = &ucases[i];
        ok = true;
        for ( cur_roots = &roots; ok && cur_roots;
              cur_roots = cur_roots == &roots ? &indexed : NULL )
        {
            flags = 0;
            n = walk(c, ips, &flags);
            ok = n == c->nexp && flags == c->flags;
            for ( j = 0; j < MAXIPS + 4; j++ )
                ok = ok && ips[j] == (j < n ? RET(c->exp[j]) : CANARY);
        }
        if ( !tap_ok(ok, "unwind: %s (2 root tables)", c->desc) )
            tap_diag("got %u addresses, flags %#x", n, flags);
    }
    cur_roots = &roots;
}
