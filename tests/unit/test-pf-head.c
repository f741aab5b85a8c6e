// SPDX-License-Identifier: GPL-2.0-only
/*
 * One CPU's events of a Perfetto bundle merged one at a time
 * (src/input/pf-head.h), on sources written here, against the order and
 * the fields worked out by hand beside each test from the rules of
 * docs/perfetto.md (the ones reader-perfetto.c's eager merge followed):
 * by timestamp, switches before wakings before FtraceEvents on equal
 * ones; a compact switch's prev task and cur_pid from the CPU's previous
 * switch (compact or not), its first compact switch dropped; a compact
 * waking's cur_pid the running task (-1 before any switch); events
 * before the crop dropped but still followed for the running task; a
 * pending loss given once, before the first event kept, with the count
 * and that event's time and CPU; the end given as NULL again and again;
 * heads at a real UINT64_MAX told from used-up sources; a second bundle
 * after pf_head_reset() keeping the running task.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "input/pf-head.h"

#define UNUSED __attribute__((unused))

static struct ea_event *add(struct pf_head *h, int src, uint64_t ts,
			    uint8_t type)
{
	struct pf_evbuf *b = &h->src[src];
	struct ea_event *e;

	if (b->n == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 8;
		b->ev = realloc(b->ev, b->cap * sizeof(*b->ev));
		assert_non_null(b->ev);
	}
	e = &b->ev[b->n++];
	memset(e, 0, sizeof(*e));
	e->ts = ts;
	e->cpu = 3;
	e->type = type;
	e->cur_pid = 77;	/* the reader's, kept for FtraceEvents */
	return e;
}

static void cswitch(struct pf_head *h, uint64_t ts, int32_t next, int32_t prio,
		    const char *comm)
{
	struct ea_event *e = add(h, PF_SRC_SWITCH, ts, EA_EV_SWITCH);

	e->flags = EA_EVF_DERIVED;
	e->sw.next_pid = next;
	e->sw.next_prio = prio;
	strcpy(e->sw.next_comm, comm);
}

static void cwaking(struct pf_head *h, uint64_t ts, int32_t pid)
{
	struct ea_event *e = add(h, PF_SRC_WAKING, ts, EA_EV_WAKING);

	e->flags = EA_EVF_DERIVED;
	e->wake.pid = pid;
}

static void begin(struct pf_head *h)
{
	for (int k = 0; k < 3; k++)
		h->src[k].n = 0;
	pf_head_reset(h);
}

/* the next event's time and type (and that one) */
static const struct ea_event *next_is(struct pf_head *h, uint64_t crop,
				      uint64_t ts, uint8_t type)
{
	const struct ea_event *e = pf_head_next(h, crop);

	assert_non_null(e);
	assert_int_equal(e->ts, ts);
	assert_int_equal(e->type, type);
	return e;
}

/*
 * Sources: switches at 10 (->100 "a", the CPU's first: dropped, but 100
 * runs from then) and 30 (->200 "b"); wakings at 10 (of 5), 20 (of 6)
 * and 30 (of 7); an FtraceEvent wakeup at 20 and one at 30.
 * Merged: 10 waking (after the dropped switch at 10: cur 100),
 * 20 waking (cur 100), 20 wakeup, 30 switch 100 -> 200 (prev "a", prio
 * 120, cur_pid 100), 30 waking (cur 200), 30 wakeup, then NULL, twice.
 */
static void test_order(UNUSED void **state)
{
	struct pf_head h;
	const struct ea_event *e;

	memset(&h, 0, sizeof(h));
	pf_head_reset(&h);
	assert_null(pf_head_next(&h, 0));	/* no bundle yet */
	begin(&h);
	cswitch(&h, 10, 100, 120, "a");
	cswitch(&h, 30, 200, 110, "b");
	cwaking(&h, 10, 5);
	cwaking(&h, 20, 6);
	cwaking(&h, 30, 7);
	add(&h, PF_SRC_EVENT, 20, EA_EV_WAKEUP)->wake.pid = 8;
	add(&h, PF_SRC_EVENT, 30, EA_EV_WAKEUP)->wake.pid = 9;
	pf_head_reset(&h);
	e = next_is(&h, 0, 10, EA_EV_WAKING);
	assert_int_equal(e->wake.pid, 5);
	assert_int_equal(e->cur_pid, 100);
	e = next_is(&h, 0, 20, EA_EV_WAKING);
	assert_int_equal(e->cur_pid, 100);
	e = next_is(&h, 0, 20, EA_EV_WAKEUP);
	assert_int_equal(e->wake.pid, 8);
	assert_int_equal(e->cur_pid, 77);
	e = next_is(&h, 0, 30, EA_EV_SWITCH);
	assert_int_equal(e->sw.prev_pid, 100);
	assert_int_equal(e->sw.prev_prio, 120);
	assert_string_equal(e->sw.prev_comm, "a");
	assert_int_equal(e->cur_pid, 100);
	assert_int_equal(e->sw.next_pid, 200);
	e = next_is(&h, 0, 30, EA_EV_WAKING);
	assert_int_equal(e->cur_pid, 200);
	e = next_is(&h, 0, 30, EA_EV_WAKEUP);
	assert_int_equal(e->wake.pid, 9);
	assert_null(pf_head_next(&h, 0));
	assert_null(pf_head_next(&h, 0));

	/*
	 * A second bundle: the running task (200 "b", prio 110) carries
	 * over, so its first compact switch (at 40, -> 300) is kept.
	 */
	begin(&h);
	cswitch(&h, 40, 300, 100, "c");
	pf_head_reset(&h);
	e = next_is(&h, 0, 40, EA_EV_SWITCH);
	assert_int_equal(e->sw.prev_pid, 200);
	assert_int_equal(e->sw.prev_prio, 110);
	assert_string_equal(e->sw.prev_comm, "b");
	assert_null(pf_head_next(&h, 0));
	pf_head_free(&h);
}

/*
 * A waking before any switch: cur_pid -1. An FtraceEvent switch (-> 50
 * "x", prio 90) sets the running task: a compact switch after it has
 * prev 50 and is kept. The crop at 25: the waking at 5 and the switch at
 * 20 dropped (the switch still followed), the compact switch at 30
 * kept. The pending loss (count 4) comes before it, at 30 on CPU 3,
 * cur_pid -1, once; then the switch itself.
 */
static void test_crop_and_loss(UNUSED void **state)
{
	struct pf_head h;
	const struct ea_event *e;
	struct ea_event *sw;

	memset(&h, 0, sizeof(h));
	begin(&h);
	cwaking(&h, 5, 1);
	sw = add(&h, PF_SRC_EVENT, 20, EA_EV_SWITCH);
	sw->sw.next_pid = 50;
	sw->sw.next_prio = 90;
	strcpy(sw->sw.next_comm, "x");
	cswitch(&h, 30, 60, 120, "y");
	h.lost_pending = true;
	h.lost_count = 4;
	pf_head_reset(&h);
	e = next_is(&h, 25, 30, EA_EV_LOST);
	assert_int_equal(e->lost.count, 4);
	assert_int_equal(e->cpu, 3);
	assert_int_equal(e->cur_pid, -1);
	e = next_is(&h, 25, 30, EA_EV_SWITCH);
	assert_int_equal(e->sw.prev_pid, 50);
	assert_int_equal(e->sw.prev_prio, 90);
	assert_string_equal(e->sw.prev_comm, "x");
	assert_null(pf_head_next(&h, 25));
	assert_false(h.lost_pending);
	assert_int_equal(h.lost_count, 0);

	/* a next bundle's waking: 60 runs now (the switch at 30) */
	begin(&h);
	cwaking(&h, 35, 1);
	pf_head_reset(&h);
	e = next_is(&h, 0, 35, EA_EV_WAKING);
	assert_int_equal(e->cur_pid, 60);
	pf_head_free(&h);

	memset(&h, 0, sizeof(h));
	begin(&h);
	cwaking(&h, 5, 1);
	pf_head_reset(&h);
	e = next_is(&h, 0, 5, EA_EV_WAKING);
	assert_int_equal(e->cur_pid, -1);	/* no switch seen */
	pf_head_free(&h);
}

/*
 * Timestamps at UINT64_MAX are events, not used-up sources: a waking and
 * an FtraceEvent there, after a switch at 1 (dropped: the first), come
 * as waking, then event; the end after them.
 */
static void test_max_ts(UNUSED void **state)
{
	struct pf_head h;

	memset(&h, 0, sizeof(h));
	begin(&h);
	cswitch(&h, 1, 10, 120, "a");
	add(&h, PF_SRC_EVENT, UINT64_MAX, EA_EV_IDLE);
	cwaking(&h, UINT64_MAX, 3);
	pf_head_reset(&h);
	next_is(&h, 0, UINT64_MAX, EA_EV_WAKING);
	next_is(&h, 0, UINT64_MAX, EA_EV_IDLE);
	assert_null(pf_head_next(&h, 0));
	pf_head_free(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_crop_and_loss),
		cmocka_unit_test(test_max_ts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
