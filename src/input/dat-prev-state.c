// SPDX-License-Identifier: GPL-2.0-only
/*
 * How a trace.dat's kernel encodes sched_switch prev_state, from the
 * event's own print format: a small C constant-expression evaluator (the
 * format's masks are expressions), the parser of the format's flag table
 * and "+" condition, and a text form of libtraceevent's parsed print
 * arguments to parse from. Used once per file by dat-format.c at open;
 * declared in reader-dat.h (unit tests call them directly).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "input/reader-dat.h"
/* ------------------------------------------------------------------ */
/* Constant-expression evaluator                                        */
/* ------------------------------------------------------------------ */

#define EVAL_MAX_DEPTH 64

struct eval {
	const char *p;
	int depth;
};

static void eval_space(struct eval *e)
{
	while (*e->p == ' ' || *e->p == '\t' || *e->p == '\n')
		e->p++;
}

static int eval_or(struct eval *e, uint64_t *v);

static int eval_number(struct eval *e, uint64_t *v)
{
	const char *p = e->p;
	uint64_t x = 0;
	int base = 10, digits = 0;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	for (;; p++, digits++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = *p - 'A' + 10;
		else
			break;
		if (x > (UINT64_MAX - d) / base)
			return -1;	/* overflow */
		x = x * base + d;
	}
	if (!digits)
		return -1;
	while (*p == 'u' || *p == 'U' || *p == 'l' || *p == 'L')
		p++;
	/* 12abc or 0x1g: not a literal */
	if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	    (*p >= '0' && *p <= '9') || *p == '_')
		return -1;
	e->p = p;
	*v = x;
	return 0;
}

static int eval_unary(struct eval *e, uint64_t *v)
{
	int rc;

	eval_space(e);
	if (++e->depth > EVAL_MAX_DEPTH)
		return -1;
	switch (*e->p) {
	case '-':
	case '~':
	case '+': {
		char op = *e->p++;

		rc = eval_unary(e, v);
		if (!rc && op == '-')
			*v = -*v;
		else if (!rc && op == '~')
			*v = ~*v;
		break;
	}
	case '(':
		e->p++;
		rc = eval_or(e, v);
		eval_space(e);
		if (!rc && *e->p != ')')
			rc = -1;
		e->p++;
		break;
	default:
		rc = eval_number(e, v);
	}
	e->depth--;
	return rc;
}

static int eval_mul(struct eval *e, uint64_t *v)
{
	uint64_t r;

	if (eval_unary(e, v))
		return -1;
	for (;;) {
		char op;

		eval_space(e);
		op = *e->p;
		if (op != '*' && op != '/' && op != '%')
			return 0;
		e->p++;
		if (eval_unary(e, &r))
			return -1;
		if (op == '*')
			*v *= r;
		else if (!r)
			return -1;
		else if (op == '/')
			*v /= r;
		else
			*v %= r;
	}
}

static int eval_add(struct eval *e, uint64_t *v)
{
	uint64_t r;

	if (eval_mul(e, v))
		return -1;
	for (;;) {
		char op;

		eval_space(e);
		op = *e->p;
		if (op != '+' && op != '-')
			return 0;
		e->p++;
		if (eval_mul(e, &r))
			return -1;
		*v = op == '+' ? *v + r : *v - r;
	}
}

static int eval_shift(struct eval *e, uint64_t *v)
{
	uint64_t r;

	if (eval_add(e, v))
		return -1;
	for (;;) {
		char op;

		eval_space(e);
		op = *e->p;
		if ((op != '<' && op != '>') || e->p[1] != op)
			return 0;
		e->p += 2;
		if (eval_add(e, &r) || r >= 64)
			return -1;
		*v = op == '<' ? *v << r : *v >> r;
	}
}

/* One level of & ^ |: op must be single (&& and || are not constants). */
static int eval_bitop(struct eval *e, uint64_t *v, char op,
		      int (*sub)(struct eval *, uint64_t *))
{
	uint64_t r;

	if (sub(e, v))
		return -1;
	for (;;) {
		eval_space(e);
		if (*e->p != op || e->p[1] == op || e->p[1] == '=')
			return 0;
		e->p++;
		if (sub(e, &r))
			return -1;
		if (op == '&')
			*v &= r;
		else if (op == '^')
			*v ^= r;
		else
			*v |= r;
	}
}

static int eval_and(struct eval *e, uint64_t *v)
{
	return eval_bitop(e, v, '&', eval_shift);
}

static int eval_xor(struct eval *e, uint64_t *v)
{
	return eval_bitop(e, v, '^', eval_and);
}

static int eval_or(struct eval *e, uint64_t *v)
{
	return eval_bitop(e, v, '|', eval_xor);
}

int ea_dat_eval(const char **s, uint64_t *val)
{
	struct eval e = { .p = *s };
	uint64_t v;

	if (eval_or(&e, &v))
		return -1;
	eval_space(&e);
	*s = e.p;
	*val = v;
	return 0;
}

/* ------------------------------------------------------------------ */
/* sched_switch prev_state                                              */
/* ------------------------------------------------------------------ */

static const char *skip_space(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	return p;
}

/* Last occurrence of needle in [start, end). */
static const char *find_last(const char *start, const char *end,
			     const char *needle)
{
	size_t n = strlen(needle);
	const char *p;

	for (p = end - n; p >= start; p--)
		if (!memcmp(p, needle, n))
			return p;
	return NULL;
}

/*
 * Value of EXPR in `REC->prev_state & EXPR ... ?` where the '?' is at q:
 * the last prev_state test before q. Parentheses around the whole
 * condition are allowed between EXPR and the '?'.
 */
static int cond_operand(const char *text, const char *q, uint64_t *val)
{
	const char *p = find_last(text, q, "REC->prev_state");

	if (!p)
		return -1;
	p = skip_space(p + strlen("REC->prev_state"));
	if (*p != '&' || p[1] == '&')
		return -1;
	p++;
	if (ea_dat_eval(&p, val))
		return -1;
	while (*p == ')' || *p == ' ')
		p++;
	return p == q ? 0 : -1;
}

/* The `? "+"` of the preempt marker: returns the position of the '?'. */
static const char *find_plus_cond(const char *text)
{
	const char *p = text, *q;

	while ((p = strstr(p, "\"+\""))) {
		q = p;
		while (q > text && (q[-1] == ' ' || q[-1] == '\t'))
			q--;
		if (q > text && q[-1] == '?')
			return q - 1;
		p += 3;
	}
	return NULL;
}

/* Parse the { value, "letter" } entries of __print_flags(). */
static int parse_flag_table(const char *text, struct ea_prev_state_fmt *f)
{
	const char *p = strstr(text, "__print_flags(");
	int n = 0;

	if (!p)
		return -1;
	p = strchr(p, '{');
	while (p && *p == '{') {
		const char *letter;
		uint64_t v;
		size_t len;

		p++;
		if (ea_dat_eval(&p, &v) || *p != ',')
			return -1;
		p = skip_space(p + 1);
		if (*p != '"')
			return -1;
		letter = ++p;
		p = strchr(p, '"');
		if (!p)
			return -1;
		len = p - letter;
		p = skip_space(p + 1);
		if (*p != '}')
			return -1;
		p = skip_space(p + 1);
		if (*p == ',')
			p = skip_space(p + 1);
		f->known_mask |= v;
		if (len == 1 && (*letter == 'X' || *letter == 'Z' || *letter == 'x'))
			f->dead_mask |= v;
		n++;
	}
	return n ? 0 : -1;
}

int ea_dat_prev_state_parse(const char *text, struct ea_prev_state_fmt *f)
{
	const char *q;
	uint64_t v;

	memset(f, 0, sizeof(*f));
	q = find_plus_cond(text);
	if (q && !cond_operand(text, q, &v) && v) {
		f->preempt = v;
		f->state_mask = v - 1;
	} else if ((q = strstr(text, "? __print_flags(")) &&
		   !cond_operand(text, q, &v) && v) {
		/* No "+" marker (old kernels): the letters' own mask. */
		f->state_mask = v;
	}
	if (parse_flag_table(text, f)) {
		f->dead_mask = 0;
		f->known_mask = 0;
	}
	if (!f->state_mask) {
		/*
		 * Fallback when the format is not understood: every kernel
		 * so far has its "task is sleeping" bits in the low byte and
		 * its preempt marker above it.
		 */
		f->state_mask = 0xff;
		f->dead_mask &= 0xff;
		return -1;
	}
	f->parsed = true;
	return 0;
}

/* Serialising libtraceevent's print argument tree back to text. */
struct sbuf {
	char *p;
	size_t len, cap;
	bool overflow;
};

static void sb_add(struct sbuf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->overflow || b->len + n >= b->cap) {
		b->overflow = true;
		return;
	}
	memcpy(b->p + b->len, s, n + 1);
	b->len += n;
}

static bool is_number(const char *s)
{
	return (*s >= '0' && *s <= '9') ||
	       (*s == '-' && s[1] >= '0' && s[1] <= '9');
}

static void sb_arg(struct sbuf *b, const struct tep_print_arg *a, int depth);

static void sb_syms(struct sbuf *b, const char *fn,
		    const struct tep_print_arg *field, const char *delim,
		    const struct tep_print_flag_sym *sym, int depth)
{
	sb_add(b, fn);
	sb_add(b, "(");
	sb_arg(b, field, depth + 1);
	if (delim) {
		sb_add(b, ", \"");
		sb_add(b, delim);
		sb_add(b, "\"");
	}
	for (; sym; sym = sym->next) {
		sb_add(b, ", { ");
		sb_add(b, sym->value ? sym->value : "?");
		sb_add(b, ", \"");
		sb_add(b, sym->str ? sym->str : "");
		sb_add(b, "\" }");
	}
	sb_add(b, ")");
}

static void sb_arg(struct sbuf *b, const struct tep_print_arg *a, int depth)
{
	if (!a || depth > EVAL_MAX_DEPTH) {
		sb_add(b, "?");
		return;
	}
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (a->atom.atom && is_number(a->atom.atom)) {
			sb_add(b, a->atom.atom);
		} else {
			sb_add(b, "\"");
			sb_add(b, a->atom.atom ? a->atom.atom : "");
			sb_add(b, "\"");
		}
		break;
	case TEP_PRINT_FIELD:
		sb_add(b, "REC->");
		sb_add(b, a->field.name ? a->field.name : "?");
		break;
	case TEP_PRINT_OP:
		if (!a->op.op) {
			sb_add(b, "?");
			break;
		}
		if (!strcmp(a->op.op, ":")) {
			sb_arg(b, a->op.left, depth + 1);
			sb_add(b, " : ");
			sb_arg(b, a->op.right, depth + 1);
			break;
		}
		sb_add(b, "(");
		if (a->op.left) {
			sb_arg(b, a->op.left, depth + 1);
			sb_add(b, " ");
			sb_add(b, a->op.op);
			sb_add(b, " ");
		} else {
			sb_add(b, a->op.op);
		}
		sb_arg(b, a->op.right, depth + 1);
		sb_add(b, ")");
		break;
	case TEP_PRINT_FLAGS:
		sb_syms(b, "__print_flags", a->flags.field, a->flags.delim,
			a->flags.flags, depth);
		break;
	case TEP_PRINT_SYMBOL:
		sb_syms(b, "__print_symbolic", a->symbol.field, NULL,
			a->symbol.symbols, depth);
		break;
	case TEP_PRINT_TYPE:
		sb_add(b, "(");
		sb_add(b, a->typecast.type ? a->typecast.type : "?");
		sb_add(b, ")");
		sb_arg(b, a->typecast.item, depth + 1);
		break;
	case TEP_PRINT_STRING:
		sb_add(b, "__get_str(");
		sb_add(b, a->string.string ? a->string.string : "?");
		sb_add(b, ")");
		break;
	default:
		sb_add(b, "?");
	}
}

int ea_dat_print_args_text(const struct tep_event *event, char *buf, size_t n)
{
	struct sbuf b = { .p = buf, .cap = n };
	const struct tep_print_arg *a;

	if (!n)
		return -1;
	buf[0] = '\0';
	for (a = event->print_fmt.args; a; a = a->next) {
		if (a != event->print_fmt.args)
			sb_add(&b, ", ");
		sb_arg(&b, a, 0);
	}
	return b.overflow ? -1 : (int)b.len;
}

int ea_dat_prev_state_from_event(const struct tep_event *event,
				 struct ea_prev_state_fmt *f)
{
	char text[4096];

	if ((event->flags & TEP_EVENT_FL_FAILED) ||
	    ea_dat_print_args_text(event, text, sizeof(text)) < 0)
		text[0] = '\0';
	return ea_dat_prev_state_parse(text, f);
}
