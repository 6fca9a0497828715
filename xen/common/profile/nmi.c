/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * nmi.c: sampling on NMIs and livepatching exclude each other
 * (xen/profile.h).
 *
 * A livepatch masks NMIs while it patches (do_nmi() is not safely
 * patchable): every NMI is swallowed by its callback, the overflow NMIs
 * of a PMU source too, whose counters would then never be re-armed, and
 * the PMU source's probe would conclude that no NMI arrives.  So a PMU
 * source holds a reference from its probe or first armed pCPU to its
 * last disarmed one, and the livepatch rendezvous refuses while there is
 * one; while a livepatch holds the block, no reference is given.  Both
 * sides decide under one lock, so neither can slip in between the
 * other's test and its act.
 */
#include <xen/errno.h>
#include <xen/profile.h>
#include <xen/spinlock.h>

static DEFINE_SPINLOCK(nmi_lock);
static unsigned int nmi_users;      /* PMU sources probing or armed */
static bool nmi_blocked;            /* a livepatch is being applied */

int profile_nmi_get(void)
{
    int rc = -EBUSY;

    spin_lock(&nmi_lock);
    if ( !nmi_blocked )
    {
        nmi_users++;
        rc = 0;
    }
    spin_unlock(&nmi_lock);

    return rc;
}

void profile_nmi_put(void)
{
    spin_lock(&nmi_lock);
    ASSERT(nmi_users);
    nmi_users--;
    spin_unlock(&nmi_lock);
}

bool profile_nmi_block(void)
{
    bool blocked = false;

    spin_lock(&nmi_lock);
    if ( !nmi_users )
    {
        nmi_blocked = true;
        blocked = true;
    }
    spin_unlock(&nmi_lock);

    return blocked;
}

void profile_nmi_unblock(void)
{
    spin_lock(&nmi_lock);
    nmi_blocked = false;
    spin_unlock(&nmi_lock);
}

/*
 * Local variables:
 * mode: C
 * c-file-style: "BSD"
 * c-basic-offset: 4
 * tab-width: 4
 * indent-tabs-mode: nil
 * End:
 */
