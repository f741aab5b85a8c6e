/* SPDX-License-Identifier: GPL-2.0-only */
/* Options shared by the trace-reading commands. */
#ifndef EATRACE_CLI_OPTIONS_H
#define EATRACE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "eatrace/output.h"
#include "eatrace/state.h"

struct ea_common_opts {
	enum ea_format format;
	const char *output;	/* -o, NULL: stdout */
	const char *model;	/* -m */
	int verbose;		/* -v count, -q sets -1 */
	struct ea_state_config cfg;	/* window, swapper idle state */
};

#define EA_COMMON_OPTS_HELP                                                    \
	"  -f, --format FMT   text (default), json or csv\n"                  \
	"  -o, --output FILE  write there instead of stdout (atomically)\n"   \
	"      --start T      analyse from T seconds after the first event;\n" \
	"                     @T for an absolute trace timestamp\n"           \
	"      --end T        ... up to T (same forms)\n"                     \
	"      --idle-state N idle state index assumed for CPUs without\n"    \
	"                     cpu_idle events, while they run pid 0 (default 0)\n" \
	"      --unknown-idle-state N  idle state index priced for idle time\n" \
	"                     whose state the trace does not show (before a\n" \
	"                     CPU's first cpu_idle exit, a CPU with no event;\n" \
	"                     default 0); reported as unknown time\n" \
	"  -q, --quiet        no notes on stderr\n"                           \
	"  -v, --verbose      more detail\n"

/*
 * Parse argv; non-option arguments are returned in *args and *nargs
 * (pointing into argv). extra: additional getopt long options, handled by
 * cb (may be NULL). Returns 0, or prints one error line and returns -1.
 */
struct option;
int ea_parse_common(int argc, char **argv, struct ea_common_opts *o,
		    const struct option *extra, int nextra,
		    int (*cb)(int opt, const char *arg, void *ctx), void *ctx,
		    bool *want_help, char ***args, int *nargs);

/* "1.25" -> 1250000000; "@2084.5" -> absolute. Returns 0 or -1. */
int ea_parse_time(const char *s, uint64_t *ns, bool *absolute);

#endif
