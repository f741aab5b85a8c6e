// SPDX-License-Identifier: GPL-2.0-only
/* The --html and --perfetto files of `report` and `replay` (pictures.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/msg.h"
#include "cli/pictures.h"
#include "eatrace/error.h"
#include "eatrace/input.h"

int ea_cli_pic_open(struct ea_out *out, const char *path)
{
	struct ea_err err;

	if (ea_out_open(out, path, &err))
		return ea_die("%s", err.msg);
	return 0;
}

int ea_cli_pic_commit(struct ea_out *out)
{
	struct ea_err err;

	if (ea_out_commit(out, &err))
		return ea_die("%s", err.msg);
	return 0;
}

void ea_cli_pic_drop_old(const char *html, const char *perfetto)
{
	ea_out_drop_old(html);
	ea_out_drop_old(perfetto);
}

/* A JSON file's changes written by two threads from this many on (fewer:
 * not worth a thread). */
#define EA_CLI_SPLIT_MIN_CHANGES 65536

/* The cap in bytes: --perfetto-max-mb's, else the format's default. */
static long long cap_bytes(enum ea_perfetto_format fmt, double max_mb)
{
	return max_mb < 0 ? ea_perfetto_default_cap(fmt)
			  : (long long)(max_mb * 1048576);
}

/* Whether path is a regular file or none yet (ea_out_open() then makes
 * one): a file that tells its size, not "-", a pipe or a device. */
static bool tells_size(const char *path)
{
	struct stat st;

	if (!strcmp(path, "-"))
		return false;
	if (stat(path, &st))
		return errno == ENOENT;
	return S_ISREG(st.st_mode);
}

struct ea_perfetto_ahead *ea_cli_perfetto_ahead(struct ea_timeline *tl,
						const char *path, double max_mb)
{
	enum ea_perfetto_format fmt = ea_perfetto_format_of(path);

	/* a capped JSON file: the changes past its cut not recorded */
	if (fmt != EA_PERFETTO_PROTOBUF && tells_size(path))
		(void)ea_perfetto_json_bound(tl, cap_bytes(fmt, max_mb));
	/* -j 1: one thread */
	if (ea_input_jobs() < 2)
		return NULL;
	/* JSON only from -j 3: beside the decoding thread and the run's,
	 * its thread cost more CPU than it took off the run's on 2 vCPUs
	 * (rec.dat: 325-410 ms against 290-357 wall; bench/README.md,
	 * "the eighth round merged") */
	if (fmt != EA_PERFETTO_PROTOBUF && ea_input_jobs() < 3)
		return NULL;
	return ea_perfetto_ahead_start_as(tl, fmt, cap_bytes(fmt, max_mb));
}

int ea_cli_perfetto_open(struct ea_out *out, const char *path,
			 struct ea_perfetto **pf, double max_mb)
{
	enum ea_perfetto_format fmt = ea_perfetto_format_of(path);

	if (ea_cli_pic_open(out, path))
		return EXIT_ERROR;
	if (ea_perfetto_begin_as(pf, out->f, fmt)) {
		ea_out_abort(out);
		return ea_die("out of memory");
	}
	ea_perfetto_cap(*pf, cap_bytes(fmt, max_mb));
	/* a temporary, removed on failure: the JSON's split thread may write
	 * its part in place */
	if (ea_out_pending_path(out))
		ea_perfetto_discardable(*pf);
	/* JSON: the changes' text after the run on the idle second CPU too */
	if (ea_input_jobs() >= 2)
		ea_perfetto_split(*pf, EA_CLI_SPLIT_MIN_CHANGES);
	return 0;
}

int ea_cli_perfetto_commit(struct ea_out *out, struct ea_perfetto *pf,
			   double max_mb, const char *path)
{
	enum ea_perfetto_format fmt = ea_perfetto_format_of(path);
	struct ea_err err;
	char given[64];
	uint64_t at;

	if (max_mb < 0)
		snprintf(given, sizeof(given), "%g (the default for %s)",
			 cap_bytes(fmt, max_mb) / 1048576.0,
			 fmt == EA_PERFETTO_PROTOBUF ? "protobuf" : "JSON");
	else
		snprintf(given, sizeof(given), "%g", max_mb);
	if (ea_perfetto_truncated(pf, &at))
		ea_msg("warning: %s reached --perfetto-max-mb %s at %.6f s: "
		       "task slices and OPP and idle-state counters stop there "
		       "(power counters cover the window; --start/--end show "
		       "another part, --perfetto-max-mb 0 lifts the cap)",
		       path, given, at / 1e9);
	if (ea_perfetto_end(pf)) {
		ea_out_abort(out);
		return ea_die("%s: out of memory while writing it", path);
	}
	/* its fsync() (tens of ms for tens of MB) beside what follows */
	if (ea_out_commit_later(out, &err))
		return ea_die("%s", err.msg);
	return 0;
}

int ea_cli_parse_max_mb(const char *arg, double *mb)
{
	char *end;
	double v = strtod(arg, &end);

	if (*end || end == arg || !(v == 0 || v >= 0.01) || v > 1e6)
		return ea_die("--perfetto-max-mb: '%s' is not a size in MB "
			      "(MiB: 0.01 to 1000000, or 0: no cap)",
			      arg);
	*mb = v;
	return 0;
}
