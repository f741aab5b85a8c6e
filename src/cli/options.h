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
	EA_COMMON_OPTS_HELP_NOFMT

/* The same without -f (for a command that has its own formats). */
#define EA_COMMON_OPTS_HELP_NOFMT                                              \
	"  -o, --output FILE  write there instead of stdout (atomically)\n"   \
	"      --start T      analyse from T seconds after the first event;\n" \
	"                     @T for an absolute trace timestamp\n"           \
	"      --end T        ... up to T (same forms); a window outside the\n" \
	"                     trace is an error (exit 2)\n"                  \
	"      --idle-state N idle state index assumed for CPUs without\n"    \
	"                     cpu_idle events, while they run pid 0 (default 0)\n" \
	"      --unknown-idle-state N  idle state index priced for idle time\n" \
	"                     whose state the trace does not show (before a\n" \
	"                     CPU's first cpu_idle exit, a CPU with no event;\n" \
	"                     default 0); reported as unknown time\n" \
	"      --absent-offline  a CPU with no event at all in the trace is\n" \
	"                     offline (its cluster's offline_power), not\n" \
	"                     unknown idle time\n" \
	"  -q, --quiet        no notes, warnings or progress on stderr\n"    \
	"  -v, --verbose      what was read, and (with -f json|csv or -o)\n" \
	"                     every note on stderr, not only warnings\n"      \
	"  -j, --jobs N       threads (1: one; an uncompressed trace.dat:\n"   \
	"                     decoding on a thread of its own from 2, the\n"   \
	"                     look-ahead apart from the pricing from 3; a\n"   \
	"                     compressed one: inflating from 2, decoding\n"    \
	"                     from 3, the look-ahead from 4; ftrace text:\n"   \
	"                     parsing on a thread of its own from 2, the\n"   \
	"                     look-ahead from 3; systrace: the look-ahead\n"  \
	"                     from 2; report's protobuf Perfetto file\n"      \
	"                     encoded from 2); default 2 on two CPUs or\n"    \
	"                     more for a trace.dat or ftrace text\n"          \
	"                     (uncompressed: of 4 MiB of data or more) and\n" \
	"                     report's protobuf, else one\n"                  \
	"      --max-inflate R  a compressed trace (gzip, zstd, Perfetto\n"   \
	"                     compressed_packets) may expand to R times its\n" \
	"                     size on disk, at least 32 MiB (default 32)\n"

/*
 * Parse argv; non-option arguments are returned in *args and *nargs
 * (pointing into argv). extra: additional getopt long options, handled by
 * cb (may be NULL). Returns 0, or prints one error line and returns -1.
 */
/* --max-inflate's value: 0, or prints one error line and returns -1. */
int ea_parse_max_inflate(const char *arg);

struct option;
int ea_parse_common(int argc, char **argv, struct ea_common_opts *o,
		    const struct option *extra, int nextra,
		    int (*cb)(int opt, const char *arg, void *ctx), void *ctx,
		    bool *want_help, char ***args, int *nargs);

/*
 * Notes on stderr, where the terminal shows them when the report itself
 * does not (-f json|csv, or -o FILE): warnings, and with -v every note;
 * nothing with -q. A text report on stdout holds them already, and -v
 * adds a line on what was read. rep may be NULL (stats).
 */
struct ea_stats;
struct ea_input_info;
struct ea_report;
void ea_notes_to_stderr(const struct ea_common_opts *o, const struct ea_stats *st,
			const struct ea_input_info *info, const struct ea_report *rep,
			const char *path);

/* After the run: an error (exit 2) when the window given with --start/--end
 * does not overlap the trace. Returns 0 or -1 after printing it. */
int ea_check_window(const struct ea_common_opts *o, const struct ea_state *s,
		    const char *path);

/* "1.25" -> 1250000000; "@2084.5" -> absolute. Returns 0 or -1. */
int ea_parse_time(const char *s, uint64_t *ns, bool *absolute);

/* --unit, for the commands that price (report, replay, diff, batch). */
#define EA_UNIT_HELP                                                           \
	"      --unit U       energies in U: J, mJ or uJ (powers in W, mW, uW)\n" \
	"                     instead of the model's power_unit x s; refused\n"   \
	"                     (exit 2) for a model whose power_unit is not W,\n"  \
	"                     mW, uW or nW (docs/json.md \"Units\")\n"

/* u for --unit name (NULL: the model's own) and model m; 0, or prints one
 * error line and returns -1. */
struct ea_model;
struct ea_energy_unit;
int ea_cli_unit(struct ea_energy_unit *u, const char *name, const struct ea_model *m);

/* "warning: model X fails 'eatrace model check' (...)" on stderr, for
 * each of models[0..n) that does, unless verbose < 0 (-q). */
void ea_cli_model_warnings(int verbose, const struct ea_model *const *models, int n);

/* How outputs name the trace argument: "<stdin>" for "-", as the
 * readers' messages do (src/input), the argument otherwise. */
#define EA_STDIN_LABEL "<stdin>"
const char *ea_trace_label(const char *arg);

#endif
