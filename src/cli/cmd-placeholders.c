// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER: commands being written; each moves to its own cmd-*.c. */
#include "cli/cmd.h"
int cmd_model_import(int argc, char **argv) { return ea_die("model import: not written yet"); }
int cmd_model_convert(int argc, char **argv) { return ea_die("model convert: not written yet"); }
