// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's emitted events made from its records (src/replay/
 * sim-build.c). Expected values written by hand below from the event
 * layout (include/eatrace/event.h) and what the simulator emitted before
 * it kept records (sim-emit.c, sim-wake.c, sim-idle.c, sim-freq.c,
 * sim-offline.c, sim.c at 61a707c): every byte of the event compared, the
 * ones a type has no field for zero. The whole runs' events are compared
 * with the simulator's own in test-sim-apart.c and test-replay.c.
 *
 * Two tasks: 0 is pid 100, prio 120, comm "worker"; 1 is pid 200, prio 98
 * (RT), comm "0123456789abcdef" filling all 16 bytes with no NUL, so the
 * comm an event carries (the simulator's copy, at most 15 bytes and a
 * NUL) differs from a switch's or wakeup's comm field (all 16, as the
 * workload holds it). Two CPUs, whose idle tasks are "swapper/0" and
 * "swapper/1"; a CPU past them gets its name made ("swapper/5").
 */
#include <string.h>

#include "harness.h"
#include "replay/sim.h"
#include "replay/workload.h"

static struct rp_task tasks[2];
static char comms[2][EA_COMM_LEN];
static char swapper[2][EA_COMM_LEN];
static const char zero[EA_COMM_LEN];

static struct sim_names names(bool no_comms)
{
	tasks[0].pid = 100;
	tasks[0].prio = 120;
	memcpy(tasks[0].comm, "worker", 7);
	tasks[1].pid = 200;
	tasks[1].prio = 98;
	memcpy(tasks[1].comm, "0123456789abcdef", EA_COMM_LEN);
	memcpy(comms[0], "worker", 7);
	memcpy(comms[1], "0123456789abcde", 16);
	memcpy(swapper[0], "swapper/0", 10);
	memcpy(swapper[1], "swapper/1", 10);
	return (struct sim_names){.tasks = tasks,
				  .comms = (const void *)comms,
				  .swapper = (const void *)swapper,
				  .ncpus = 2,
				  .no_comms = no_comms};
}

/* An event with every byte zero but the common fields. */
static struct ea_event want_of(uint64_t ts, int cpu, int cur_pid, int type)
{
	struct ea_event e;

	memset(&e, 0, sizeof(e));
	e.ts = ts;
	e.cpu = cpu;
	e.cur_pid = cur_pid;
	e.type = (uint8_t)type;
	return e;
}

static struct sim_out rec(uint64_t ts, int cpu, int cur_pid, int type, int task)
{
	struct sim_out o;

	/* garbage everywhere first: only the type's fields may be read */
	memset(&o, 0xa5, sizeof(o));
	o.ts = ts;
	o.cpu = cpu;
	o.cur_pid = cur_pid;
	o.type = (uint8_t)type;
	o.task = task;
	return o;
}

static void same(const struct ea_event *got, const struct ea_event *want)
{
	assert_memory_equal(got, want, sizeof(*want));
}

/* Task 0 blocks on CPU 1, which goes to its idle task. */
static void switch_to_idle(void **unused)
{
	struct sim_names nm = names(false);
	struct sim_out o = rec(1000, 1, 100, EA_EV_SWITCH, 0);
	struct ea_event ev, want = want_of(1000, 1, 100, EA_EV_SWITCH);
	const char *comm;

	(void)unused;
	o.sw.next_pid = 0;
	o.sw.next_task = -1;
	o.sw.prev_state = EA_PREV_BLOCKED;
	want.sw.prev_pid = 100;
	want.sw.next_pid = 0;
	want.sw.prev_prio = 120;
	want.sw.next_prio = 120; /* the idle task's */
	want.sw.prev_state = EA_PREV_BLOCKED;
	memcpy(want.sw.prev_comm, "worker", 7);
	memcpy(want.sw.next_comm, "swapper/1", 10);
	comm = sim_build_event(&nm, &o, &ev);
	same(&ev, &want);
	assert_memory_equal(comm, "worker\0\0\0\0\0\0\0\0\0", EA_COMM_LEN);
}

/* CPU 5 (past the CPUs named) leaves its idle task for task 1. */
static void switch_from_idle(void **unused)
{
	struct sim_names nm = names(false);
	struct sim_out o = rec(2000, 5, 0, EA_EV_SWITCH, -1);
	struct ea_event ev, want = want_of(2000, 5, 0, EA_EV_SWITCH);
	const char *comm;

	(void)unused;
	o.sw.next_pid = 200;
	o.sw.next_task = 1;
	o.sw.prev_state = EA_PREV_RUNNABLE;
	want.sw.prev_pid = 0;
	want.sw.next_pid = 200;
	want.sw.prev_prio = 120;
	want.sw.next_prio = 98;
	want.sw.prev_state = EA_PREV_RUNNABLE;
	memcpy(want.sw.prev_comm, "swapper/5", 10);
	memcpy(want.sw.next_comm, "0123456789abcdef", EA_COMM_LEN);
	comm = sim_build_event(&nm, &o, &ev);
	same(&ev, &want);
	assert_string_equal(comm, "<idle>");
}

/* Task 1 woken onto CPU 0 while task 0 runs there. */
static void wakeup(void **unused)
{
	struct sim_names nm = names(false);
	struct sim_out o = rec(3000, 0, 100, EA_EV_WAKEUP, 0);
	struct ea_event ev, want = want_of(3000, 0, 100, EA_EV_WAKEUP);
	const char *comm;

	(void)unused;
	o.wake.task = 1;
	o.wake.target_cpu = 0;
	want.wake.pid = 200;
	want.wake.prio = 98;
	want.wake.target_cpu = 0;
	memcpy(want.wake.comm, "0123456789abcdef", EA_COMM_LEN);
	comm = sim_build_event(&nm, &o, &ev);
	same(&ev, &want);
	assert_string_equal(comm, "worker");

	/* the current task is task 1: its comm cut to 15 bytes */
	o = rec(3001, 1, 200, EA_EV_WAKEUP, 1);
	o.wake.task = 0;
	o.wake.target_cpu = 1;
	comm = sim_build_event(&nm, &o, &ev);
	assert_string_equal(comm, "0123456789abcde");
	assert_string_equal(ev.wake.comm, "worker");
	assert_int_equal(ev.wake.pid, 100);
	assert_int_equal(ev.wake.prio, 120);
}

/* Idle entry and exit, an OPP, hotplug and suspend steps. */
static void cpu_events(void **unused)
{
	struct sim_names nm = names(false);
	struct sim_out o = rec(4000, 1, 0, EA_EV_IDLE, -1);
	struct ea_event ev, want = want_of(4000, 1, 0, EA_EV_IDLE);

	(void)unused;
	o.idle.state = 2;
	o.idle.cpu = 1;
	want.idle.state = 2;
	want.idle.cpu = 1;
	assert_string_equal(sim_build_event(&nm, &o, &ev), "<idle>");
	same(&ev, &want);

	o.idle.state = EA_IDLE_EXIT;
	want.idle.state = -1;
	sim_build_event(&nm, &o, &ev);
	same(&ev, &want);

	o = rec(5000, 0, 100, EA_EV_FREQ, 0);
	o.freq.khz = 1800000;
	o.freq.cpu = 0;
	want = want_of(5000, 0, 100, EA_EV_FREQ);
	want.freq.freq_khz = 1800000;
	want.freq.cpu = 0;
	assert_string_equal(sim_build_event(&nm, &o, &ev), "worker");
	same(&ev, &want);

	o = rec(6000, 0, 100, EA_EV_HOTPLUG, 0);
	o.hotplug.cpu = 1;
	o.hotplug.target = -1;
	o.hotplug.step = 1;
	o.hotplug.enter = 0;
	want = want_of(6000, 0, 100, EA_EV_HOTPLUG);
	want.hotplug.cpu = 1;
	want.hotplug.target = -1;
	want.hotplug.step = 1;
	want.hotplug.enter = 0;
	sim_build_event(&nm, &o, &ev);
	same(&ev, &want);

	o = rec(7000, 0, 0, EA_EV_SUSPEND, -1);
	o.suspend.val = 3;
	o.suspend.begin = 1;
	want = want_of(7000, 0, 0, EA_EV_SUSPEND);
	want.suspend.val = 3;
	want.suspend.begin = 1;
	sim_build_event(&nm, &o, &ev);
	same(&ev, &want);
}

/* The two markers the simulator writes: the start (a CPU found running
 * a task at the trace's start) and the end of its timeline. */
static void markers(void **unused)
{
	struct sim_names nm = names(false);
	struct sim_out o = rec(8000, 0, 200, EA_EV_MARKER, 1);
	struct ea_event ev, want = want_of(8000, 0, 200, EA_EV_MARKER);

	(void)unused;
	o.marker.text = SIM_MARK_START;
	memcpy(want.marker.text, "eatrace: replay", 16);
	assert_string_equal(sim_build_event(&nm, &o, &ev), "0123456789abcde");
	same(&ev, &want);

	o.marker.text = SIM_MARK_END;
	memcpy(want.marker.text, "eatrace: replay end", 20);
	sim_build_event(&nm, &o, &ev);
	same(&ev, &want);
}

/* A sink that reads no comm gets an all-zero one; the fields keep theirs. */
static void no_comms(void **unused)
{
	struct sim_names nm = names(true);
	struct sim_out o = rec(9000, 0, 100, EA_EV_WAKEUP, 0);
	struct ea_event ev;

	(void)unused;
	o.wake.task = 1;
	o.wake.target_cpu = 0;
	assert_memory_equal(sim_build_event(&nm, &o, &ev), zero, EA_COMM_LEN);
	assert_memory_equal(ev.wake.comm, "0123456789abcdef", EA_COMM_LEN);
}

/* The idle task's name for any CPU number, cut to 15 bytes. */
static void swapper_names(void **unused)
{
	char out[EA_COMM_LEN];

	(void)unused;
	sim_swapper_comm(0, out);
	assert_string_equal(out, "swapper/0");
	sim_swapper_comm(12345, out);
	assert_string_equal(out, "swapper/12345");
	sim_swapper_comm(-3, out);
	assert_string_equal(out, "swapper/-3");
	sim_swapper_comm(2147483647, out); /* "swapper/2147483647": 18 */
	assert_string_equal(out, "swapper/2147483");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(switch_to_idle),
		cmocka_unit_test(switch_from_idle),
		cmocka_unit_test(wakeup),
		cmocka_unit_test(cpu_events),
		cmocka_unit_test(markers),
		cmocka_unit_test(no_comms),
		cmocka_unit_test(swapper_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
