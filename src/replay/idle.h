/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The replay's idle-state selection (idle.c): a --idle parsed, the menu
 * governor's prediction, the deepest state an idle period's length fits.
 * Beside the policies; uses the platform layer only.
 */
#ifndef EATRACE_REPLAY_IDLE_H
#define EATRACE_REPLAY_IDLE_H

#include "replay/platform.h"

enum rp_idle_sel { RP_IDLE_RECORDED, RP_IDLE_MENU, RP_IDLE_ORACLE };

int rp_idle_parse(const char *name);

#define RP_MENU_HIST 8
/* menu-like prediction from the last idle durations (ns), 0: none. */
uint64_t rp_menu_predict(const uint64_t *hist, int n);
/* Deepest state whose target residency fits idle_ns. */
int rp_idle_state_for(const struct ea_cluster *cl, uint64_t idle_ns);
/* rp_idle_state_for(cl, rp_menu_predict(hist, n)), predicting only when
 * the periods span more than one state. */
int rp_menu_state(const struct ea_cluster *cl, const uint64_t *hist, int n);

#endif
