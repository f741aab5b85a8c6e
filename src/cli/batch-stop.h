/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * How `eatrace batch` ends when stopped (src/cli/batch-stop.c): SIGINT,
 * SIGTERM and SIGHUP (those not ignored at start) stop its workers and
 * let it commit the rows finished so far; --resume removes the
 * temporaries a killed eatrace left beside the table (docs/batch.md
 * "Interruptions").
 */
#ifndef EATRACE_CLI_BATCH_STOP_H
#define EATRACE_CLI_BATCH_STOP_H

#include <stdbool.h>

/* From now on SIGINT, SIGTERM and SIGHUP stop the worker pool
 * (ea_pool_stop()) instead of ending the process; one ignored when the
 * process started stays ignored. */
void batch_catch_stop(void);
/* The signal that stopped the batch, 0 if none came. */
int batch_stopped_by(void);
/* "SIGINT", "SIGTERM" or "SIGHUP". */
const char *batch_signal_name(int sig);

/*
 * --resume: in the directory of output (and of the file a symlink there
 * leads to), remove the temporaries .eatrace-PID-XXXXXX of this user whose
 * process no longer exists, naming each on stderr unless quiet. Returns
 * how many were removed.
 */
int batch_remove_stale(const char *output, bool quiet);

#endif
