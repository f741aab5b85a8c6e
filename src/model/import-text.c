// SPDX-License-Identifier: GPL-2.0-only
/*
 * Small helpers every importer shares: a growable string, one-line errors,
 * plain decimal numbers, CPU lists, the RFC wakeup unit and cluster keys
 * (--cpus KEY=...).
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/import-priv.h"

/* ---- strings ---- */

void ea_sb_vadd(struct ea_strbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;

	if (b->oom)
		return;
	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if (b->len + (size_t)n + 1 > b->cap) {
		size_t cap = (b->cap ? b->cap * 2 : 256) + (size_t)n;
		char *s = realloc(b->s, cap);

		if (!s) {
			b->oom = true;
			return;
		}
		b->s = s;
		b->cap = cap;
	}
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	b->len += (size_t)n;
}

void ea_sb_add(struct ea_strbuf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ea_sb_vadd(b, fmt, ap);
	va_end(ap);
}

/* ---- numbers ---- */

void ea_import_scrub(struct ea_err *err)
{
	if (!err)
		return;
	for (char *p = err->msg; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
}

double ea_rfc_wakeup(double w)
{
	return w * 47742.0 / (1024.0 * 1000.0);
}

int ea_parse_num(const char *s, size_t n, double *v)
{
	char buf[64], *end;

	if (n == 0 || n >= sizeof(buf))
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (!strchr("0123456789+-.", buf[0]))
		return -1;
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789+-.eE", buf[i]))
			return -1;
	errno = 0;
	*v = strtod(buf, &end);
	if (end != buf + n || !isfinite(*v))
		return -1;
	return 0;
}

int ea_parse_cpulist(const char *s, int **cpus)
{
	int *v = NULL, n = 0, cap = 0;

	*cpus = NULL;
	while (*s == ' ' || *s == '\t')
		s++;
	while (*s && *s != '\n') {
		long a, b;
		char *e;

		if (*s < '0' || *s > '9')
			goto bad;
		a = strtol(s, &e, 10);
		b = a;
		s = e;
		if (*s == '-') {
			s++;
			if (*s < '0' || *s > '9')
				goto bad;
			b = strtol(s, &e, 10);
			s = e;
		}
		if (a > b || b >= EA_MODEL_MAX_CPUS)
			goto bad;
		for (long c = a; c <= b; c++) {
			if (n >= EA_MODEL_MAX_CPUS)
				goto bad;
			if (n == cap) {
				int *nv;

				cap = cap ? cap * 2 : 16;
				nv = realloc(v, (size_t)cap * sizeof(*v));
				if (!nv)
					goto bad;
				v = nv;
			}
			v[n++] = (int)c;
		}
		if (*s == ',')
			s++;
		else if (*s && *s != '\n' && *s != ' ' && *s != '\t')
			goto bad;
		while (*s == ' ' || *s == '\t')
			s++;
	}
	*cpus = v;
	return n;
bad:
	free(v);
	return -1;
}

/* ---- cluster keys ---- */

bool ea_import_key_matches(const struct ea_model *m, int ci, const char *key)
{
	const char *name = m->clusters[ci].name;
	char *e;
	long idx;

	if (!strcmp(name, key))
		return true;
	if (!strncmp(name, "cluster", 7) && !strcmp(name + 7, key))
		return true;
	if (*key >= '0' && *key <= '9') {
		idx = strtol(key, &e, 10);
		if (!*e && idx == ci)
			return true;
	}
	return false;
}
