// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER: commands being written; each moves to its own cmd-*.c. */
#include "cli/cmd.h"
