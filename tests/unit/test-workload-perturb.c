// SPDX-License-Identifier: GPL-2.0-only
/*
 * An ensemble member's workload (src/replay/workload-perturb.c) on
 * tests/fixtures/replay/perturb.txt (its header draws it), figures worked
 * out by hand: work = ns x 1024 (--source-capacity 1024), times in ns
 * from the trace start T = 100 s.
 */
#include "harness.h"
#include "replay-events.h"
#include "eatrace/replay.h"
#include "replay/workload.h"

#define T 100000000000ull /* the trace's first event, ns */
#define MS 1000000ull

static struct ea_workload *extract_segs(struct ea_run *run, bool segs)
{
	struct ea_workload_config wcfg = {.source_capacity = 1024,
					  .no_segments = !segs,
					  .early_ns = 5 * MS};

	return workload_of("tests/fixtures/replay/perturb.txt", &wcfg, run);
}

static struct ea_workload *extract(struct ea_run *run)
{
	return extract_segs(run, false);
}

/* The task named comm. */
static const struct rp_task *task(const struct ea_workload *w, const char *comm)
{
	for (size_t i = 0; i < w->ntasks; i++)
		if (!strcmp(w->tasks[i].comm, comm))
			return &w->tasks[i];
	fail_msg("no task %s", comm);
	return NULL;
}

/*
 * The recording as extracted: a [0, 4 ms) 4 ms x 1024, [10, 11 ms)
 * 1 ms x 1024; b [2, 3 ms) 1 ms x 1024. Its early runs: a's [0, 4 ms) and
 * b's [2, 3 ms), both began before 5 ms; a's at 10 ms did not.
 */
static void base(void **unused)
{
	struct ea_run run;
	struct ea_workload *w = extract(&run);
	const struct rp_task *a = task(w, "a"), *b = task(w, "b");

	assert_int_equal(a->nacts, 2);
	assert_int_equal(b->nacts, 1);
	assert_true(rp_task_stored(a, 0).release == T && rp_task_stored(a, 0).end == T + 4 * MS);
	assert_true(rp_task_stored(a, 0).work == 4 * MS * 1024);
	assert_true(rp_task_stored(a, 1).release == T + 10 * MS);
	assert_true(rp_task_stored(b, 0).work == 1 * MS * 1024);
	assert_int_equal(w->nearly, 2);
	ea_workload_free(w);
	ea_run_free(&run);
}

/*
 * Cut at 1 ms, no jitter: a's first activation is there from 1 ms
 * (released at 1 ms, RP_ACT_START) with the 3 ms x 1024 it had left; b's
 * and a's second are as recorded. The window starts at 1 ms.
 */
static void cut_1ms(void **unused)
{
	struct ea_run run;
	struct ea_workload *w = extract(&run), *m;
	const struct rp_task *a, *b;

	m = rp_workload_perturb(w, 1 * MS, 0, 1);
	assert_non_null(m);
	a = task(m, "a");
	b = task(m, "b");
	assert_int_equal(a->nacts, 2);
	assert_true(rp_task_act(a, 0).release == T + 1 * MS);
	assert_true(rp_task_act(a, 0).eligible >= T + 1 * MS);
	assert_true(rp_task_act(a, 0).flags & RP_ACT_START);
	assert_true(rp_task_act(a, 0).work == 3 * MS * 1024);
	assert_true(rp_task_act(a, 0).end == T + 4 * MS);
	assert_true(rp_task_act(a, 1).release == T + 10 * MS);
	assert_true(rp_task_act(a, 1).work == 1 * MS * 1024);
	assert_int_equal(b->nacts, 1);
	assert_true(rp_task_act(b, 0).release == T + 2 * MS);
	assert_true(rp_task_act(b, 0).work == 1 * MS * 1024);
	assert_true(ea_workload_counts(m)->first_ts == T + 1 * MS);
	assert_true(ea_workload_counts(m)->win_start == T + 1 * MS);
	ea_workload_free(m);

	/* 2.5 ms: a has 1.5 ms x 1024 left, b (from 2 ms) 0.5 ms x 1024 */
	m = rp_workload_perturb(w, 2500000, 0, 1);
	assert_non_null(m);
	a = task(m, "a");
	b = task(m, "b");
	assert_true(rp_task_act(a, 0).work == 1500000ull * 1024);
	assert_true(rp_task_act(b, 0).release == T + 2500000);
	assert_true(rp_task_act(b, 0).work == 500000ull * 1024);
	ea_workload_free(m);
	ea_workload_free(w);
	ea_run_free(&run);
}

/*
 * Cut at 7 ms, beyond early_ns (5 ms): cut at 5 ms. a's first activation
 * and b's ended by then: gone; a's second is as recorded.
 */
static void cut_clamped(void **unused)
{
	struct ea_run run;
	struct ea_workload *w = extract(&run), *m;
	const struct rp_task *a, *b;

	m = rp_workload_perturb(w, 7 * MS, 0, 1);
	assert_non_null(m);
	a = task(m, "a");
	b = task(m, "b");
	assert_int_equal(a->nacts, 1);
	assert_true(rp_task_act(a, 0).release == T + 10 * MS);
	assert_true(rp_task_act(a, 0).work == 1 * MS * 1024);
	assert_int_equal(b->nacts, 0);
	assert_true(ea_workload_counts(m)->first_ts == T + 5 * MS);
	ea_workload_free(m);
	ea_workload_free(w);
	ea_run_free(&run);
}

/*
 * Jitter 2 us, no cut: every activation released d later, 0 <= d <= 2 us,
 * its eligible time by the same d, its work and end unchanged; the same
 * seed gives the same draws, and some seed among a few moves some
 * activation (three draws in [0, 2000] all 0 has odds 1 in 2001^3).
 */
static void jitter(void **unused)
{
	struct ea_run run;
	struct ea_workload *w = extract(&run);
	bool moved = false;

	for (uint64_t seed = 1; seed <= 4; seed++) {
		struct ea_workload *m = rp_workload_perturb(w, 0, 2000, seed);
		struct ea_workload *m2 = rp_workload_perturb(w, 0, 2000, seed);

		assert_non_null(m);
		assert_non_null(m2);
		for (size_t i = 0; i < w->ntasks; i++) {
			const struct rp_task *bt = &w->tasks[i],
					     *t = &m->tasks[i],
					     *t2 = &m2->tasks[i];

			assert_int_equal(t->nacts, bt->nacts);
			for (size_t k = 0; k < bt->nacts; k++) {
				uint64_t d = rp_task_act(t, k).release -
					     rp_task_stored(bt, k).release;

				assert_true(rp_task_act(t, k).release >=
					    rp_task_stored(bt, k).release);
				assert_true(d <= 2000);
				assert_true(rp_task_act(t, k).eligible ==
					    rp_task_stored(bt, k).eligible + d);
				assert_true(rp_task_act(t, k).work ==
					    rp_task_stored(bt, k).work);
				assert_true(rp_task_act(t, k).end ==
					    rp_task_stored(bt, k).end);
				assert_true(rp_task_act(t2, k).release ==
					    rp_task_act(t, k).release);
				moved |= d > 0;
			}
		}
		ea_workload_free(m);
		ea_workload_free(m2);
	}
	assert_true(moved);
	ea_workload_free(w);
	ea_run_free(&run);
}

/* Segment g of activation k of t, as the replay reads it. */
static struct rp_seg seg_of(const struct rp_task *t, size_t k, uint32_t g)
{
	struct rp_seg one;
	uint32_t n;
	const struct rp_seg *segs = rp_task_segs(t, k, &n, &one);

	assert_true(g < n);
	return segs[g];
}

/* Task tv (a view or a copy) reads as tc (a copy) does; whether tv is a
 * view. RP_ACT_SEG1 (a segment not kept apart) may differ: a copy keeps
 * every segment apart. */
static bool same_task(const struct rp_task *tv, const struct rp_task *tc)
{
	const unsigned seg1 = RP_ACT_SEG1 | RP_ACT_SEG1_IDLE;

	assert_false(tc->view);
	assert_int_equal(tv->nacts, tc->nacts);
	for (size_t k = 0; k < tc->nacts; k++) {
		struct rp_act x = rp_task_act(tv, k), y = rp_task_act(tc, k);

		x.flags &= ~seg1;
		y.flags &= ~seg1;
		assert_memory_equal(&x, &y, sizeof(x));
		{
			struct rp_waker wv = rp_task_waker(tv, k),
					wc = rp_task_waker(tc, k);

			assert_memory_equal(&wv, &wc, sizeof(wc));
		}
		assert_int_equal(rp_task_nseg(tv, k), rp_task_nseg(tc, k));
		for (uint32_t g = 0; g < rp_task_nseg(tc, k); g++) {
			struct rp_seg a = seg_of(tv, k, g),
				      b = seg_of(tc, k, g);

			assert_true(
				a.work == b.work && a.stretch == b.stretch &&
				a.start == b.start && a.seq_in == b.seq_in &&
				a.cpu == b.cpu && a.from_idle == b.from_idle);
		}
	}
	return tv->view;
}

/*
 * A member read as a view of the recording's workload (its arrays shared,
 * the cut activation apart, the jitter drawn when read) has the same
 * activations, wakers and segments as the same member copied, at every
 * cut from 0 to 6 ms (each activation before, across and after it) with
 * and without jitter, with and without segments.
 */
static void view_is_copy(void **unused)
{
	bool viewed = false;

	for (int segs = 0; segs < 2; segs++) {
		struct ea_run run;
		struct ea_workload *w = extract_segs(&run, segs);

		for (uint64_t cut = 0; cut <= 6 * MS; cut += MS / 4)
			for (uint64_t jit = 0; jit <= 4000; jit += 4000) {
				struct ea_workload *v = rp_workload_perturb_as(
					w, cut, jit, 7, false);
				struct ea_workload *c = rp_workload_perturb_as(
					w, cut, jit, 7, true);

				assert_non_null(v);
				assert_non_null(c);
				assert_int_equal(v->ntasks, c->ntasks);
				for (size_t i = 0; i < c->ntasks; i++)
					viewed |= same_task(&v->tasks[i],
							    &c->tasks[i]);
				ea_workload_free(v);
				ea_workload_free(c);
			}
		ea_workload_free(w);
		ea_run_free(&run);
	}
	assert_true(viewed);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(base),		cmocka_unit_test(cut_1ms),
		cmocka_unit_test(cut_clamped),	cmocka_unit_test(jitter),
		cmocka_unit_test(view_is_copy),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
