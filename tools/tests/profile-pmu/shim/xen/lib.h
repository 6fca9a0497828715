/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * xen/lib.h: empty in the PMU driver tests, which include Xen's real
 * xen/profile.h and xen/profile-source.h; emul.h, included first, has
 * what they take from it.
 */
