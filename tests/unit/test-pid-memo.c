// SPDX-License-Identifier: GPL-2.0-only
/*
 * The workload's pid memo (src/replay/pid-memo.h): a pid is found with the
 * index last put for it while no other pid put since shares its entry
 * (the low 8 bits, RP_PID_MEMO 256); never found otherwise, nor when
 * never put, nor for pid 0 or a negative pid in a zeroed memo. The
 * expected values are worked out below by hand, and in the random run by
 * a scan back through the history of puts (the last put whose pid has the
 * same low 8 bits says), not by a table like the memo's.
 */
#include <stdlib.h>

#include "harness.h"
#include "replay/pid-memo.h"

static void by_hand(void **state)
{
	struct rp_pid_memo m;

	(void)state;
	memset(&m, 0, sizeof(m));
	/* zeroed: nothing, pid 0 (entry 0 says pid 0) nor -1 (entry 255) */
	assert_int_equal(rp_pid_memo_get(&m, 0), -1);
	assert_int_equal(rp_pid_memo_get(&m, -1), -1);
	assert_int_equal(rp_pid_memo_get(&m, 5), -1);
	/* task index 0 is found (index + 1 kept, not 0) */
	rp_pid_memo_put(&m, 300, 0); /* entry 300 - 256 = 44 */
	assert_int_equal(rp_pid_memo_get(&m, 300), 0);
	assert_int_equal(rp_pid_memo_get(&m, 44), -1); /* same entry */
	rp_pid_memo_put(&m, 5, 7);
	assert_int_equal(rp_pid_memo_get(&m, 5), 7);
	assert_int_equal(rp_pid_memo_get(&m, 6), -1);
	assert_int_equal(rp_pid_memo_get(&m, 261), -1); /* 5 + 256 */
	/* 261 takes entry 5: 5 is no longer found, 300 still is */
	rp_pid_memo_put(&m, 261, 9);
	assert_int_equal(rp_pid_memo_get(&m, 261), 9);
	assert_int_equal(rp_pid_memo_get(&m, 5), -1);
	assert_int_equal(rp_pid_memo_get(&m, 300), 0);
	/* 5 back with another index */
	rp_pid_memo_put(&m, 5, 11);
	assert_int_equal(rp_pid_memo_get(&m, 5), 11);
	assert_int_equal(rp_pid_memo_get(&m, 261), -1);
	/* a large pid (pid_max 2^22) and the largest index kept */
	rp_pid_memo_put(&m, 4194303, 0xfffffffdu); /* entry 255 */
	assert_int_equal(rp_pid_memo_get(&m, 4194303), 0xfffffffdll);
	assert_int_equal(rp_pid_memo_get(&m, -1), -1); /* entry 255 too */
	assert_int_equal(rp_pid_memo_get(&m, 255), -1);
}

#define NPUT 20000

static void random_run(void **state)
{
	static int32_t hist_pid[NPUT];
	static size_t hist_idx[NPUT];
	struct rp_pid_memo m;
	unsigned int seed = 12345;
	int n = 0;

	(void)state;
	memset(&m, 0, sizeof(m));
	for (int step = 0; step < 3 * NPUT; step++) {
		/* pids 1..1000: each entry shared by 3 or 4 of them */
		int32_t pid = 1 + (int32_t)(rand_r(&seed) % 1000);
		int64_t want = -1;

		if (n < NPUT && rand_r(&seed) % 3 == 0) {
			hist_pid[n] = pid;
			hist_idx[n] = (size_t)(rand_r(&seed) % 5000);
			rp_pid_memo_put(&m, pid, hist_idx[n]);
			n++;
			continue;
		}
		for (int i = n - 1; i >= 0; i--)
			if ((hist_pid[i] & 255) == (pid & 255)) {
				if (hist_pid[i] == pid)
					want = (int64_t)hist_idx[i];
				break;
			}
		assert_int_equal(rp_pid_memo_get(&m, pid), want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(by_hand),
		cmocka_unit_test(random_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
