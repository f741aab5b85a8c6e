// SPDX-License-Identifier: GPL-2.0-only
/*
 * Wattson's device_infos.sql (wattson.h): not parsed as SQL, only the
 * ("DEVICE", N, N) rows of three tables lexed out of it, for the device
 * imported: _cpu_to_policy_map (CPU -> cpufreq policy),
 * _device_cpu_deep_idle_offsets (ns) and _idle_state_map (cpuidle index ->
 * Wattson's idle0 or idle1).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/wattson.h"

enum tok { T_END, T_ID, T_STR, T_NUM, T_PUNCT };

struct lex {
	const char *p, *end;
	int line;
	enum tok t;
	char s[W_DEV_LEN + 16]; /* T_ID, T_STR (cut) */
	bool long_str;
	int64_t num;
	bool num_big;
	char c; /* T_PUNCT */
	int tline;
};

static void next(struct lex *l)
{
	for (;;) {
		while (l->p < l->end && isspace((unsigned char)*l->p)) {
			if (*l->p == '\n')
				l->line++;
			l->p++;
		}
		if (l->end - l->p >= 2 && l->p[0] == '-' && l->p[1] == '-') {
			while (l->p < l->end && *l->p != '\n')
				l->p++;
			continue;
		}
		if (l->end - l->p >= 2 && l->p[0] == '/' && l->p[1] == '*') {
			l->p += 2;
			while (l->p < l->end &&
			       !(l->end - l->p >= 2 && l->p[0] == '*' &&
				 l->p[1] == '/')) {
				if (*l->p == '\n')
					l->line++;
				l->p++;
			}
			l->p = l->end - l->p >= 2 ? l->p + 2 : l->end;
			continue;
		}
		break;
	}
	l->tline = l->line;
	if (l->p >= l->end) {
		l->t = T_END;
		return;
	}
	if (*l->p == '"' || *l->p == '\'') {
		char q = *l->p++;
		size_t n = 0;

		l->t = T_STR;
		l->long_str = false;
		while (l->p < l->end) {
			if (*l->p == q) {
				if (l->end - l->p >= 2 && l->p[1] == q) {
					l->p++; /* doubled quote */
				} else {
					l->p++;
					break;
				}
			}
			if (*l->p == '\n')
				l->line++;
			if (n < sizeof(l->s) - 1)
				l->s[n++] = *l->p;
			else
				l->long_str = true;
			l->p++;
		}
		l->s[n] = '\0';
		return;
	}
	if (isdigit((unsigned char)*l->p) ||
	    (*l->p == '-' && l->end - l->p >= 2 &&
	     isdigit((unsigned char)l->p[1]))) {
		bool neg = *l->p == '-';

		l->t = T_NUM;
		l->num = 0;
		l->num_big = false;
		if (neg)
			l->p++;
		while (l->p < l->end && isdigit((unsigned char)*l->p)) {
			if (l->num > (INT64_MAX - 9) / 10)
				l->num_big = true;
			else
				l->num = l->num * 10 + (*l->p - '0');
			l->p++;
		}
		if (neg)
			l->num = -l->num;
		return;
	}
	if (isalpha((unsigned char)*l->p) || *l->p == '_') {
		size_t n = 0;

		l->t = T_ID;
		while (l->p < l->end &&
		       (isalnum((unsigned char)*l->p) || *l->p == '_')) {
			if (n < sizeof(l->s) - 1)
				l->s[n++] = *l->p;
			l->p++;
		}
		l->s[n] = '\0';
		return;
	}
	l->t = T_PUNCT;
	l->c = *l->p++;
}

enum table { TB_NONE, TB_OFFSETS, TB_POLICY, TB_IDLE };

static int tuple(struct wctx *w, struct lex *l, enum table tb)
{
	int64_t a, b;
	char dev[sizeof(l->s)];
	int line = l->tline;
	bool mine;

	snprintf(dev, sizeof(dev), "%s", l->s);
	mine = !l->long_str && !strcmp(dev, w->dev);
	next(l);
	if (l->t != T_PUNCT || l->c != ',')
		return 0; /* not a (device, N, N) row: not ours */
	next(l);
	if (l->t != T_NUM || l->num_big)
		return FAIL(w, -1, line,
			    "expected (\"DEVICE\", N, N): a number after the "
			    "device name");
	a = l->num;
	next(l);
	if (l->t != T_PUNCT || l->c != ',')
		return FAIL(w, -1, line,
			    "expected (\"DEVICE\", N, N): ',' after %lld",
			    (long long)a);
	next(l);
	if (l->t != T_NUM || l->num_big)
		return FAIL(w, -1, line,
			    "expected (\"DEVICE\", N, N): a number after %lld,",
			    (long long)a);
	b = l->num;
	next(l);
	if (l->t != T_PUNCT || l->c != ')')
		return FAIL(w, -1, line,
			    "expected (\"DEVICE\", N, N): ')' after %lld, %lld",
			    (long long)a, (long long)b);
	next(l);
	if (!mine)
		return 0;
	if (tb == TB_IDLE) {
		if (a == 4294967295LL || a == -1)
			return 0; /* the "not idle" row */
		if (a < 0 || a >= EA_MODEL_MAX_IDLE_STATES)
			return FAIL(
				w, -1, line,
				"cpuidle state %lld is out of range (0..%d)",
				(long long)a, EA_MODEL_MAX_IDLE_STATES - 1);
		if (b != 0 && b != 1)
			return FAIL(w, -1, line,
				    "cpuidle state %lld maps to Wattson state "
				    "%lld (only 0 and 1 have curves)",
				    (long long)a, (long long)b);
		if (w->idle_map[a] != -2)
			return FAIL(w, -1, line,
				    "cpuidle state %lld of '%s' mapped again "
				    "(first at line %d)",
				    (long long)a, w->dev, w->idle_line[a]);
		w->idle_map[a] = (int)b;
		w->idle_line[a] = line;
		w->have_idle_map = true;
		return 0;
	}
	if (a < 0 || a >= EA_MODEL_MAX_CPUS)
		return FAIL(w, -1, line, "CPU %lld is out of range (0..%d)",
			    (long long)a, EA_MODEL_MAX_CPUS - 1);
	if (tb == TB_POLICY) {
		if (b < 0 || b >= EA_MODEL_MAX_CPUS)
			return FAIL(w, -1, line,
				    "policy %lld is out of range (0..%d)",
				    (long long)b, EA_MODEL_MAX_CPUS - 1);
		if (w->policy[a] >= 0)
			return FAIL(w, -1, line,
				    "CPU %lld of '%s' mapped again (first at "
				    "line %d)",
				    (long long)a, w->dev, w->pol_line[a]);
		w->policy[a] = (int)b;
		w->pol_line[a] = line;
	} else {
		if (b < 0 || b > 10000000000LL)
			return FAIL(w, -1, line,
				    "deep-idle offset %lld ns is out of range "
				    "(0..10 s)",
				    (long long)b);
		if (w->offset[a] >= 0)
			return FAIL(w, -1, line,
				    "deep-idle offset of CPU %lld of '%s' "
				    "given again",
				    (long long)a, w->dev);
		w->offset[a] = b;
	}
	return 0;
}

int ea_wattson_read_infos(struct wctx *w)
{
	char *buf;
	size_t len;
	struct lex l = {0};
	enum table tb = TB_NONE;
	bool after_table = false;
	int rc = 0;

	if (ea_read_file(w->infos, W_MAX_FILE, &buf, &len, w->err))
		return -1;
	if (memchr(buf, '\0', len)) {
		free(buf);
		return ea_imp_fail(
			&w->b, w->infos,
			"a NUL byte: not Wattson's device_infos.sql");
	}
	l.p = buf;
	l.end = buf + len;
	l.line = 1;
	next(&l);
	while (l.t != T_END && !rc) {
		if (l.t == T_ID) {
			if (!strcasecmp(l.s, "CREATE"))
				tb = TB_NONE;
			if (after_table) {
				if (!strcmp(l.s,
					    "_device_cpu_deep_idle_offsets"))
					tb = TB_OFFSETS;
				else if (!strcmp(l.s, "_cpu_to_policy_map"))
					tb = TB_POLICY;
				else if (!strcmp(l.s, "_idle_state_map"))
					tb = TB_IDLE;
			}
			after_table = !strcasecmp(l.s, "TABLE");
			next(&l);
			continue;
		}
		after_table = false;
		if (tb != TB_NONE && l.t == T_PUNCT && l.c == '(') {
			next(&l);
			if (l.t == T_STR)
				rc = tuple(w, &l, tb);
			continue;
		}
		next(&l);
	}
	free(buf);
	return rc;
}
