/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Internals of the trace.dat reader that unit tests exercise directly:
 * the constant-expression evaluator and the sched_switch prev_state
 * decoding derived from the trace's own print format (dat-prev-state.c);
 * and the file's magic bytes, which several of its files check.
 */
#ifndef EATRACE_INPUT_READER_DAT_H
#define EATRACE_INPUT_READER_DAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/event.h"

struct tep_event;

/* A trace.dat file's first bytes (then the version string, "6" or "7"). */
static const unsigned char dat_magic[10] = "\x17\x08\x44tracing";

/*
 * Evaluate the C constant expression at *s (decimal and hex literals with
 * optional U/L suffixes; unary - ~ +; * / % + - << >> & ^ | with C
 * precedence; parentheses). Stops at the first character that cannot
 * continue the expression (an unmatched ')', '?', ',', end of string) and
 * leaves *s there. Returns 0, or -1 on a syntax error, division by zero or
 * an out-of-range shift (*s is then unspecified).
 */
int ea_dat_eval(const char **s, uint64_t *val);

/* How one trace encodes sched_switch prev_state. */
struct ea_prev_state_fmt {
	uint64_t preempt;	/* N in `prev_state & N ? "+"`; 0 if not found */
	uint64_t state_mask;	/* bits that mean "not runnable": N - 1 */
	uint64_t dead_mask;	/* bits whose __print_flags letter is X, Z or x */
	uint64_t known_mask;	/* every bit of the __print_flags table */
	bool parsed;		/* false: the fallback rule is in use */
};

/*
 * Derive the decoding from sched_switch's print format text (the whole
 * "print fmt: ..." line, or just its arguments). Returns 0 when the
 * format was understood; otherwise fills the fallback (low 8 bits zero
 * means runnable, anything else blocked) and returns -1.
 */
int ea_dat_prev_state_parse(const char *print_fmt, struct ea_prev_state_fmt *f);

/* Same, from an event parsed by libtraceevent (its print argument tree). */
int ea_dat_prev_state_from_event(const struct tep_event *event,
				 struct ea_prev_state_fmt *f);

/*
 * The print arguments of a parsed event as C-like text, as the kernel
 * wrote them modulo parentheses and constant folding. Returns the length,
 * or -1 when it did not fit in n bytes.
 */
int ea_dat_print_args_text(const struct tep_event *event, char *buf, size_t n);

/* A sched_switch prev_state as f decodes it (inline: once a switch). */
static inline enum ea_prev_state
ea_dat_prev_state_decode(const struct ea_prev_state_fmt *f, uint64_t prev_state)
{
	uint64_t bits = prev_state & f->state_mask;

	if (!bits)
		return EA_PREV_RUNNABLE;
	if (f->dead_mask && !(bits & ~f->dead_mask))
		return EA_PREV_DEAD;
	return EA_PREV_BLOCKED;
}

#endif
