// SPDX-License-Identifier: GPL-2.0-only
/*
 * Idle-state selection of the replay. `recorded` takes the state the
 * recorded CPU was in at that instant (sim-idle.c); `menu` predicts the idle
 * duration from the CPU's last eight idle periods the way the menu
 * governor's get_typical_interval() does (their mean when they agree, else
 * drop the longest and retry); `oracle` knows the duration (a first pass of
 * the simulation measures it). Both take the deepest state whose target
 * residency fits.
 */
#include <string.h>

#include "eatrace/replay.h"
#include "replay/idle.h"

int rp_idle_parse(const char *name)
{
	if (!strcmp(name, "recorded"))
		return RP_IDLE_RECORDED;
	if (!strcmp(name, "menu"))
		return RP_IDLE_MENU;
	if (!strcmp(name, "oracle"))
		return RP_IDLE_ORACLE;
	return -1;
}

bool ea_replay_idle_valid(const char *name)
{
	return rp_idle_parse(name) >= 0;
}

int rp_idle_state_for(const struct ea_cluster *cl, uint64_t idle_ns)
{
	int k = 0;

	for (int i = 1; i < cl->nidles; i++)
		if ((uint64_t)cl->idles[i].target_residency_us * 1000 <= idle_ns)
			k = i;
	return k;
}

uint64_t rp_menu_predict(const uint64_t *hist, int n)
{
	uint64_t thresh = UINT64_MAX;

	if (n <= 0)
		return 0;
	for (int round = 0; round < RP_MENU_HIST / 2; round++) {
		double sum = 0, var = 0, avg;
		uint64_t max = 0;
		int cnt = 0;

		for (int i = 0; i < n; i++) {
			if (hist[i] > thresh)
				continue;
			sum += (double)hist[i];
			if (hist[i] > max)
				max = hist[i];
			cnt++;
		}
		if (!cnt)
			break;
		avg = sum / cnt;
		for (int i = 0; i < n; i++)
			if (hist[i] <= thresh)
				var += ((double)hist[i] - avg) * ((double)hist[i] - avg);
		var /= cnt;
		/* within 400 us^2, or the mean is 6 standard deviations out */
		if (var <= 400e6 || avg * avg > 36 * var)
			return (uint64_t)avg;
		if (cnt * 4 <= n * 3)
			break;
		thresh = max - 1;
	}
	/* no typical interval: the shortest recent one (conservative) */
	{
		uint64_t min = UINT64_MAX;

		for (int i = 0; i < n; i++)
			if (hist[i] < min)
				min = hist[i];
		return min;
	}
}

/*
 * The prediction is the mean of some of the periods, or the shortest: it
 * lies between the shortest and the longest (exactly so while the longest
 * is below 2^50 ns, where the sum of eight in a double is exact and the
 * mean rounds between them). When both map to one state, that is the
 * state, without predicting.
 */
int rp_menu_state(const struct ea_cluster *cl, const uint64_t *hist, int n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	int k;

	for (int i = 0; i < n; i++) {
		if (hist[i] < lo)
			lo = hist[i];
		if (hist[i] > hi)
			hi = hist[i];
	}
	if (n > 0 && n <= RP_MENU_HIST && hi < 1ull << 50) {
		k = rp_idle_state_for(cl, lo);
		if (k == rp_idle_state_for(cl, hi))
			return k;
	}
	return rp_idle_state_for(cl, rp_menu_predict(hist, n));
}
