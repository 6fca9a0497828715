/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models.c: the simulated CPU models.  Intel architectural perfmon
 * versions 0 to 4, with and without full-width counter writes; AMD
 * families 0xf (too old), 0x10 (legacy bank of 4), 0x17 and Hygon 0x18
 * (PerfCtrExtCore: 6); a CPU of neither vendor.
 */
#include "test.h"

/* The macros give defaults that the models override. */
#pragma GCC diagnostic ignored "-Woverride-init"

#define INTEL(...) {                                                    \
    .vendor = SIM_INTEL, .max_leaf = 0x16, .gp_width = 48,             \
    .ebx_len = 7, .nr_fixed = 3, .fixed_width = 48,                    \
    .max_ext_leaf = 0x80000008, .pmi_masks_lvtpc = true, __VA_ARGS__ }
#define AMD(...) {                                                      \
    .vendor = SIM_AMD, .max_leaf = 0xd, .max_ext_leaf = 0x8000001f,    \
    __VA_ARGS__ }

const struct sim_model m_intel_v2 =
    INTEL(.name = "Intel v2, 4 GP, no PDCM", .version = 2, .nr_gp = 4);
const struct sim_model m_intel_v3_fw =
    INTEL(.name = "Intel v3, 8 GP, full-width", .version = 3, .nr_gp = 8,
          .pdcm = true, .full_width = true);
const struct sim_model m_intel_levelled =
    INTEL(.name = "Intel v3, full-width, CPUID levelled", .version = 3,
          .nr_gp = 8, .pdcm = true, .full_width = true, .levelled = true);
const struct sim_model m_intel_v4 =
    INTEL(.name = "Intel v4, 4 GP, PDCM without full-width", .version = 4,
          .nr_gp = 4, .pdcm = true);
const struct sim_model m_intel_v4_nocaps =
    INTEL(.name = "Intel v4, PDCM but PERF_CAPABILITIES faults",
          .version = 4, .nr_gp = 4, .pdcm = true, .no_perf_caps = true);
const struct sim_model m_intel_v4_nobrmiss =
    INTEL(.name = "Intel v4, full-width, no branch-misses", .version = 4,
          .nr_gp = 4, .pdcm = true, .full_width = true,
          .unavailable = 1u << 6);
const struct sim_model m_intel_short_ebx =
    INTEL(.name = "Intel v2, EBX length 5", .version = 2, .nr_gp = 4,
          .ebx_len = 5);
const struct sim_model m_intel_v1 =
    INTEL(.name = "Intel v1", .version = 1, .nr_gp = 2, .gp_width = 40,
          .nr_fixed = 0, .fixed_width = 0);
const struct sim_model m_intel_v0 =
    INTEL(.name = "Intel v0", .version = 0, .nr_gp = 0, .gp_width = 0,
          .ebx_len = 0, .nr_fixed = 0, .fixed_width = 0);
const struct sim_model m_intel_noleaf =
    INTEL(.name = "Intel without CPUID leaf 0xa", .max_leaf = 5,
          .version = 2, .nr_gp = 4);
const struct sim_model m_intel_1gp =
    INTEL(.name = "Intel v2, 1 GP", .version = 2, .nr_gp = 1);
const struct sim_model m_amd_10h =
    AMD(.name = "AMD family 0x10", .family = 0x10);
const struct sim_model m_amd_17h =
    AMD(.name = "AMD family 0x17, PerfCtrExtCore", .family = 0x17,
        .ext_core = true);
const struct sim_model m_amd_noext =
    AMD(.name = "AMD family 0x15, CPUID levelled", .family = 0x15,
        .ext_core = true, .levelled = true);
const struct sim_model m_amd_0fh =
    AMD(.name = "AMD family 0xf", .family = 0xf);
const struct sim_model m_hygon_18h =
    AMD(.name = "Hygon family 0x18", .vendor = SIM_HYGON, .family = 0x18,
        .ext_core = true);
const struct sim_model m_centaur =
    AMD(.name = "Centaur", .vendor = SIM_CENTAUR, .family = 6);
