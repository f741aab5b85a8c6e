/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output plumbing shared by every renderer: files written atomically, and a
 * small streaming JSON writer with deterministic formatting.
 */
#ifndef EATRACE_OUTPUT_H
#define EATRACE_OUTPUT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/error.h"

enum ea_format { EA_FMT_TEXT, EA_FMT_JSON, EA_FMT_CSV };

/*
 * An output file: "-" or NULL is stdout; anything else is written to a
 * temporary file beside it and renamed over it only by ea_out_commit(), so a
 * failed run never leaves a partial file and the old one survives.
 */
struct ea_out {
	FILE *f;
	char *path, *tmp;
};

int ea_out_open(struct ea_out *o, const char *path, struct ea_err *err);
int ea_out_commit(struct ea_out *o, struct ea_err *err);
void ea_out_abort(struct ea_out *o);

/* JSON writer: two-space indentation, keys in the order written. */
struct ea_json {
	FILE *f;
	int depth;
	bool first;		/* no member written yet at this depth */
};

void ea_json_begin(struct ea_json *j, FILE *f);
void ea_json_end(struct ea_json *j);	/* final newline */
/* key may be NULL inside arrays. */
void ea_json_obj(struct ea_json *j, const char *key);
void ea_json_obj_end(struct ea_json *j);
void ea_json_arr(struct ea_json *j, const char *key);
void ea_json_arr_end(struct ea_json *j);
void ea_json_str(struct ea_json *j, const char *key, const char *val);
void ea_json_int(struct ea_json *j, const char *key, long long val);
void ea_json_uint(struct ea_json *j, const char *key, unsigned long long val);
/* Shortest round-trip representation (%.17g trimmed); NaN/Inf -> null. */
void ea_json_num(struct ea_json *j, const char *key, double val);
/* Exact seconds from nanoseconds: 1.000000123 */
void ea_json_ns_as_s(struct ea_json *j, const char *key, uint64_t ns);
void ea_json_bool(struct ea_json *j, const char *key, bool val);
/* A number already formatted (e.g. an exact decimal energy). */
void ea_json_raw(struct ea_json *j, const char *key, const char *literal);

/* "%llu.%09llu" seconds into buf (at least 32 bytes). */
const char *ea_fmt_s(char *buf, uint64_t ns);
/* Shortest decimal that reads back as the same double. */
const char *ea_fmt_num(char *buf, double v);

#endif
