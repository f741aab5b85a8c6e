/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The JSON --perfetto writer's text (src/output/perfetto-json-text.c):
 * its buffer, its numbers, and the pass over a timeline's changes (task
 * slices, OPP and idle-state counters) that perfetto-json.c runs at the
 * end of the run, or perfetto-json-ahead.c during it on a thread of its
 * own.
 *
 * Run ahead (pass->held set), the pass gives its buffers to held's blocks
 * instead of the file, leaves a hole where each slice's task name goes
 * (the name is the state's at the end of the run) and notes where the
 * cap would have been checked (the file's size there is known only at the
 * end, once the names and what comes before the slices are).
 */
#ifndef EATRACE_OUTPUT_PERFETTO_JSON_TEXT_H
#define EATRACE_OUTPUT_PERFETTO_JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/html.h"
#include "output/perfetto-ahead.h"
#include "output/perfetto-priv.h"

/*
 * The text goes through a buffer of the writer's own (p->held bytes of
 * buf), given to the file a buffer at a time: one memcpy per piece, not
 * one fwrite. ea_pf_tell() counts what it holds. Ahead, the buffer is a
 * block of PJ_BLOCK_BYTES, given to the blocks held when full.
 */
#define PJ_BUF_BYTES 65536
#define PJ_BLOCK_BYTES (2u << 20)

struct pj_writer {
	char *buf;
	size_t cap; /* buf's bytes */
	char pid[24]; /* the process's number, as text */
	size_t pid_len;
	struct pf_ahead *held; /* ahead: where full buffers go */
	char own[PJ_BUF_BYTES]; /* buf, when not ahead */
};

static inline struct pj_writer *pj_w(const struct ea_perfetto *p)
{
	return p->impl;
}

/* The buffer to the file (ahead: to the blocks held, a new one in its
 * place). */
void pj_flush(struct ea_perfetto *p);

/* Where n more bytes (n <= the buffer's) go; held grows by what is
 * written there when the caller gives the end (pj_held_to()). */
static inline char *pj_room(struct ea_perfetto *p, size_t n)
{
	if (p->held + n > pj_w(p)->cap)
		pj_flush(p);
	return pj_w(p)->buf + p->held;
}

static inline void pj_held_to(struct ea_perfetto *p, const char *end)
{
	p->held = (size_t)(end - pj_w(p)->buf);
}

void pj_put_bytes(struct ea_perfetto *p, const char *s, size_t n);
void pj_put_text(struct ea_perfetto *p, const char *s);
/* ",\n" unless first. */
void pj_sep(struct ea_perfetto *p);
/* s as a JSON string in a new buffer (*len bytes); NULL: no memory. */
char *pj_esc_dup(const char *s, size_t *len);
/* Decimal digits of v at q ("%lld"); the end. */
char *pj_put_i64(char *q, long long v);
/* A counter: qname is its name as a JSON string (qlen bytes), val its
 * value's text. */
void pj_counter(struct ea_perfetto *p, const char *qname, size_t qlen,
		uint64_t ts, uint64_t t0, const char *val);

/* The least bytes a task slice's text takes (slice(), after its ",\n"):
 * its fixed text with one-digit process, thread, pid and frequency
 * numbers, the empty name "" and the shortest times ("0.000").
 * perfetto-json-bound.c rests on it. */
#define PJ_LIT(s) (sizeof(s) - 1)
#define PJ_SLICE_MIN_BYTES                                                  \
	(PJ_LIT("{\"ph\":\"X\",\"pid\":") + 1 + PJ_LIT(",\"tid\":") + 1 +   \
	 PJ_LIT(",\"name\":") + PJ_LIT("\"\"") +                            \
	 PJ_LIT(",\"cat\":\"task\",\"ts\":") + PJ_LIT("0.000") +            \
	 PJ_LIT(",\"dur\":") + PJ_LIT("0.000") +                            \
	 PJ_LIT(",\"args\":{\"pid\":") + 1 + PJ_LIT(",\"freq_khz\":") + 1 + \
	 PJ_LIT("}}"))

/* A task's text in its slices, made once per task: its name as a JSON
 * string (none ahead) and ",\"cat\":\"task\",\"ts\":" (name_len bytes),
 * then ",\"args\":{\"pid\":PID,\"freq_khz\":" (tail_len bytes). */
struct pj_task {
	uint16_t name_len, tail_len;
	int32_t pid;
	char *text;
};

/* The tasks' texts, found by pid (its value: index + 1). */
struct pj_tasks {
	struct ea_pf_pid_map by_pid;
	struct pj_task *e;
	size_t n, cap;
};

/* Ahead: the place of a slice's task name (bytes of the text before it)
 * and the task's index in pj_tasks. */
struct pj_hole {
	size_t off;
	size_t task;
};

/* Ahead: where the cap would have been checked, before change at: the
 * bytes of the text and the holes before. */
struct pj_check {
	size_t off, holes;
	uint64_t at;
};

struct pj_cpu;

/* One pass over a timeline's changes. */
struct pj_pass {
	const struct ea_acct *acct;
	int ncpus;
	struct pj_cpu *cpu; /* ncpus */
	struct pj_tasks tasks;
	size_t k; /* changes given */
	int max_cpu; /* the highest CPU of a change given (-1: none) */
	/* ahead: where the text goes, the holes, the checks, the bytes it
	 * may hold (it stops at the first check past them: stopped) */
	struct pf_ahead *held;
	bool name_holes; /* a hole for each name (else the name, from s) */
	struct pj_hole *holes;
	size_t nholes, holes_cap;
	struct pj_check *checks;
	size_t nchecks, checks_cap;
	size_t max_bytes;
	bool stopped;
};

/* A pass writing p's process's changes on ncpus CPUs priced by a (held:
 * ahead, p's buffer that of pj_writer_ahead()); 0, or -1 when out of
 * memory. */
int pj_pass_init(struct pj_pass *ps, struct ea_perfetto *p,
		 const struct ea_acct *a, int ncpus, struct pf_ahead *held,
		 size_t max_bytes);
void pj_pass_free(struct pj_pass *ps);
/* The text of change ch (names of pids from s, t0 the time origin):
 * false when the pass stops there (the cap reached, out of memory, ahead
 * the bytes it may hold). */
bool pj_pass_change(struct ea_perfetto *p, struct pj_pass *ps,
		    const struct ea_tl_change *ch, const struct ea_state *s,
		    uint64_t t0);

/* What pj_pass_change() of ch leaves in ps for the changes after it (the
 * CPU's last values, the count), without its text: a pass that starts
 * past the record's start reads the changes before it so. */
void pj_pass_skip(struct pj_pass *ps, const struct ea_tl_change *ch);

/*
 * The bytes pj_pass_change() would write for ch into p (not first), taking
 * ch in as it does (the CPU's values, the tasks' texts, the count), without
 * writing them; *check set when it would check the cap before them (the
 * file's size then against the cap: it stops there when reached).
 * SIZE_MAX when out of memory. Not ahead (the pass makes the names).
 */
size_t pj_pass_measure(const struct ea_perfetto *p, struct pj_pass *ps,
		       const struct ea_tl_change *ch, const struct ea_state *s,
		       uint64_t t0, bool *check);

/* A stand-in writer p for a pass ahead: no file, process number 1, not
 * first, its buffers to held's blocks. 0, or -1 when out of memory. */
int pj_writer_ahead(struct ea_perfetto *p, struct pf_ahead *held);
/* A stand-in writer p to f (process number 1, not first, no cap): 0, or
 * -1 when out of memory. */
int pj_writer_to(struct ea_perfetto *p, FILE *f);
void pj_writer_free(struct ea_perfetto *p);

#endif
