// SPDX-License-Identifier: GPL-2.0-only
/* Streaming JSON writer: see include/eatrace/output.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "eatrace/escape.h"
#include "eatrace/output.h"

const char *ea_fmt_s(char *buf, uint64_t ns)
{
	snprintf(buf, 32, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
		 (unsigned long long)(ns % 1000000000u));
	return buf;
}

/*
 * The fewest significant digits (1 to 17) whose "%.*g" reads back as v.
 * Where v's rounding interval is symmetric (v not a power of two), reading
 * back is monotonic in the digits: the rounding to p + 1 digits is at
 * least as near v as the one to p digits, and both ends of the interval
 * round to v or neither does. There a binary search finds the precision
 * trying 1, 2, ... 17 in turn finds, in 4 or 5 tries instead of up to 17;
 * elsewhere (powers of two, zero, infinities, NaN) the plain search runs.
 */
const char *ea_fmt_num(char *buf, double v)
{
	int lo = 1, hi = 17, e; /* the answer is in [lo, hi] */

	if (!isfinite(v) || frexp(v, &e) == 0.5 || frexp(v, &e) == -0.5 ||
	    v == 0) {
		for (int prec = 1; prec <= 17; prec++) {
			snprintf(buf, 40, "%.*g", prec, v);
			if (strtod(buf, NULL) == v)
				return buf;
		}
		return buf;
	}
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		snprintf(buf, 40, "%.*g", mid, v);
		if (strtod(buf, NULL) == v)
			hi = mid;
		else
			lo = mid + 1;
	}
	snprintf(buf, 40, "%.*g", lo, v);
	return buf;
}

static void indent(struct ea_json *j)
{
	fputc('\n', j->f);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->f);
}

static void put_string(FILE *f, const char *s)
{
	ea_esc_json(f, s);
}

static void member(struct ea_json *j, const char *key)
{
	if (!j->first)
		fputc(',', j->f);
	j->first = false;
	if (j->depth)
		indent(j);
	if (key) {
		put_string(j->f, key);
		fputs(": ", j->f);
	}
}

void ea_json_begin(struct ea_json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->first = true;
}

void ea_json_end(struct ea_json *j)
{
	fputc('\n', j->f);
}

static void open_(struct ea_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->f);
	j->depth++;
	j->first = true;
}

static void close_(struct ea_json *j, char c)
{
	bool empty = j->first;

	j->depth--;
	if (!empty)
		indent(j);
	fputc(c, j->f);
	j->first = false;
}

void ea_json_obj(struct ea_json *j, const char *key)
{
	open_(j, key, '{');
}

void ea_json_obj_end(struct ea_json *j)
{
	close_(j, '}');
}

void ea_json_arr(struct ea_json *j, const char *key)
{
	open_(j, key, '[');
}

void ea_json_arr_end(struct ea_json *j)
{
	close_(j, ']');
}

void ea_json_str(struct ea_json *j, const char *key, const char *val)
{
	member(j, key);
	if (val)
		put_string(j->f, val);
	else
		fputs("null", j->f);
}

void ea_json_int(struct ea_json *j, const char *key, long long val)
{
	member(j, key);
	fprintf(j->f, "%lld", val);
}

void ea_json_uint(struct ea_json *j, const char *key, unsigned long long val)
{
	member(j, key);
	fprintf(j->f, "%llu", val);
}

void ea_json_num(struct ea_json *j, const char *key, double val)
{
	char buf[40];

	member(j, key);
	if (!isfinite(val))
		fputs("null", j->f);
	else
		fputs(ea_fmt_num(buf, val == 0 ? 0 : val), j->f);
}

void ea_json_ns_as_s(struct ea_json *j, const char *key, uint64_t ns)
{
	char buf[32];

	member(j, key);
	fputs(ea_fmt_s(buf, ns), j->f);
}

void ea_json_bool(struct ea_json *j, const char *key, bool val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->f);
}

void ea_json_raw(struct ea_json *j, const char *key, const char *literal)
{
	member(j, key);
	fputs(literal, j->f);
}
