/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `eatrace diff`: did energy go up between two sets of runs, with
 * confidence, and where from. Each trace is priced by the accountant
 * (include/eatrace/energy.h); runs are normalised, each side summarised, and
 * the relative change of the means given with a Welch confidence interval.
 * With --models A B the same traces are priced by both models: the runs
 * are pairs, compared by their per-trace ratios (src/diff/paired.c).
 */
#ifndef EATRACE_DIFF_H
#define EATRACE_DIFF_H

#include <stdbool.h>
#include <stdio.h>

#include "eatrace/energy.h"
#include "eatrace/error.h"
#include "eatrace/model.h"
#include "eatrace/unit.h"

enum ea_norm {
	EA_NORM_NONE,	/* energy, power_unit x s */
	EA_NORM_TIME,	/* energy / duration: mean power, power_unit */
	EA_NORM_WORK,	/* energy / work: power_unit x s per capacity-second */
};

#define EA_DIFF_MAX_CLUSTERS 16

/* The gate's outcome. With a confidence interval: pass when the whole
 * interval is at or below the threshold, fail when it is all above,
 * inconclusive when it straddles it. Without one (a single run on a
 * side): the point estimate decides, pass or fail. */
enum ea_verdict {
	EA_VERDICT_INCONCLUSIVE,	/* 0: the default of inconclusive_as */
	EA_VERDICT_PASS,
	EA_VERDICT_FAIL,
};

struct ea_diff_task {
	char comm[EA_COMM_LEN];
	double energy;		/* normalised, summed over the side's runs */
};

struct ea_diff_run {
	char *path;
	int ncpus;
	double energy, busy, idle, wakeup;	/* power_unit x s */
	double duration_s;
	double work_cap_s;	/* capacity-seconds (1024 x ns / 1024e9) */
	double value;		/* normalised energy */
	double norm;		/* the divisor used for value (1 for none) */
	double cluster_energy[EA_DIFF_MAX_CLUSTERS];
	/* per cluster: share of time at each cap state / in each C-state */
	double *pstate_s[EA_DIFF_MAX_CLUSTERS];
	double *cstate_s[EA_DIFF_MAX_CLUSTERS];
	uint64_t wakeups;	/* CPU idle exits */
	struct ea_diff_task *tasks;
	size_t ntasks, task_cap;
};

struct ea_diff_side {
	const char *name;	/* "base" or "new" */
	const struct ea_model *model;
	/* How each run is read and priced, as 'report' would (window, idle
	 * state for CPUs without cpu_idle; assumed OPP, zero wakeups);
	 * NULL: the defaults. */
	const struct ea_state_config *state_cfg;
	const struct ea_acct_config *acct_cfg;
	struct ea_diff_run *runs;
	int n;
	double mean, sd;	/* of value */
	/* the unit its figures are shown in (--unit), applied by
	 * ea_diff_in_unit(); energy[0] == 0: the model's power_unit x s */
	struct ea_energy_unit unit;
};

struct ea_diff {
	struct ea_diff_side side[2];	/* base, new */
	enum ea_norm norm;
	double max_increase_pct, confidence;
	double change_pct;	/* (mean_new - mean_base) / mean_base */
	bool stats;		/* both sides have >= 2 runs */
	double ci_low_pct, ci_high_pct;	/* two-sided, at confidence */
	double df, t;		/* Welch degrees of freedom, t quantile */
	enum ea_verdict verdict;
	/* What an inconclusive verdict counts as (--inconclusive): PASS,
	 * FAIL, or INCONCLUSIVE (its own exit status, 3). */
	enum ea_verdict inconclusive_as;
	/* Inconclusive: runs per side that would resolve a change of this
	 * size at the observed spread (0: none would, e.g. change = threshold). */
	int runs_needed;
	bool fail;		/* counts as failed: FAIL, or INCONCLUSIVE as FAIL */
	bool models_mode;	/* same traces, two models: compared as pairs */
	/*
	 * models_mode: run i of both sides is the same trace. The change,
	 * interval, df and t above are then those of the paired comparison:
	 * Student's t on ln(value_new / value_base) over the traces that
	 * have energy under both models (src/diff/paired.c).
	 */
	struct ea_diff_paired {
		int n;			/* pairs with a ratio */
		int left_out;		/* pairs with zero energy under both models */
		double mean_log, sd_log;	/* of the n log ratios */
		/* Inconclusive: traces whose log ratios, at this spread,
		 * would give an interval clear of the threshold (0: none
		 * would, the change is at the threshold). */
		int traces_needed;
	} paired;
};

/* Price one trace; fills r. Returns 0 or -1 with err. */
int ea_diff_add_run(struct ea_diff_side *side, const char *trace,
		    enum ea_norm norm, struct ea_err *err);
/*
 * Price base[] onto side 0 and news[] onto side 1, in that order, with up
 * to jobs child processes at once (src/diff/diff-par.c; 1: in this
 * process; 0: the CPU count, or 1 when the traces total under 16 MiB). The same runs and the same first error as ea_diff_add_run()
 * called on each in turn.
 */
int ea_diff_price(struct ea_diff *d, char *const *base, int nbase,
		  char *const *news, int nnew, enum ea_norm norm, int jobs,
		  struct ea_err *err);
/* Compare the sides: statistics and verdict. Returns 0 or -1 with err for
 * inputs that cannot be compared (empty side, different CPU counts). */
int ea_diff_compute(struct ea_diff *d, struct ea_err *err);
void ea_diff_free(struct ea_diff *d);

/* Paired comparison (src/diff/paired.c), called by ea_diff_compute() in
 * models_mode after the checks common to both comparisons. */
int ea_diff_compute_paired(struct ea_diff *d, struct ea_err *err);
/* Pair i's ratio value_new / value_base: 0 and *ratio set; 1 when the trace
 * has zero energy under both models (no ratio; *why says so); -1 when
 * under one only (the comparison refuses it; *why says so). */
int ea_diff_pair_ratio(const struct ea_diff *d, int i, double *ratio,
		       const char **why);
/* Smallest n (>= 2) of pairs whose log ratios, with sample sd sd_log, give
 * a t interval of half-width t(0.5 + confidence / 2, n - 1) sd_log / sqrt(n)
 * below gap_log; 0 when no n up to 1e6 does. */
int ea_pairs_needed(double sd_log, double gap_log, double confidence);

/* Statistics (src/diff/tstat.c). */
void ea_mean_sd(const double *x, int n, double *mean, double *sd);
/* Welch: standard error of mean2 - mean1 and Welch-Satterthwaite df. */
void ea_welch(double m1, double s1, int n1, double m2, double s2, int n2,
	      double *se, double *df);
/* Student t CDF and its inverse (quantile), df > 0. */
double ea_t_cdf(double t, double df);
double ea_t_quantile(double p, double df);
/* The gate on a change's interval [lo, hi] (percent) against the largest
 * increase allowed: pass when all of it is at or below, fail when all is
 * above, else inconclusive. */
enum ea_verdict ea_gate_verdict(double ci_low_pct, double ci_high_pct,
				double max_increase_pct);
/* Smallest n (runs per side, >= 2) at which the Welch interval of a change
 * of change_pct, with sides of sd sd_base and sd_new around a base mean
 * mean_base, no longer straddles thr_pct: its half-width
 * 100 t(df) sqrt((sd_base^2 + sd_new^2) / n) / mean_base is below
 * |change_pct - thr_pct|. 0 when no n up to 1e6 does. */
int ea_runs_needed(double mean_base, double sd_base, double sd_new,
		   double change_pct, double thr_pct, double confidence);
/* The sample-size search of both: smallest n in [2, 1e6] at which
 * width(n, ctx), a half-width that shrinks as n grows, is below gap
 * (doubling, then bisecting); 0 when gap <= 0 or no n up to 1e6 does. */
int ea_smallest_n(double (*width)(int n, const void *ctx), const void *ctx,
		  double gap);
const char *ea_verdict_name(enum ea_verdict v);	/* "pass", "fail", "inconclusive" */

const char *ea_norm_name(enum ea_norm n);
const char *ea_norm_unit(enum ea_norm n);	/* "x s", "", "x s per cap-s" */

/* Renderers (src/output/diff-*.c). */
void ea_diff_render_text(FILE *f, const struct ea_diff *d);
void ea_diff_render_json(FILE *f, const struct ea_diff *d);
void ea_diff_render_markdown(FILE *f, const struct ea_diff *d);
void ea_diff_render_junit(FILE *f, const struct ea_diff *d);
/* The JUnit file of a run that could not be priced: one error case. */
void ea_diff_render_junit_error(FILE *f, const char *msg);
/* The verdict line ("FAIL: energy +3.10% (95% CI ...") for the renderers. */
const char *ea_diff_verdict_line(const struct ea_diff *d, char *buf, size_t n);
/*
 * Units (src/output/diff-unit.c). ea_diff_in_unit(), once, after
 * ea_diff_price() and before ea_diff_compute(): each side's energies in
 * its side->unit, and work in capacity x s (1024 = the biggest CPU at its
 * highest OPP for 1 s; --normalize work then gives energy per capacity x
 * s), as replay shows it. ea_diff_unit(): the base side's unit (the
 * native one in *tmp when unset); ea_diff_value_unit(): what the
 * normalised values are in, "mW x s", "mW", "mW x s per capacity x s".
 */
void ea_diff_in_unit(struct ea_diff *d);
const struct ea_energy_unit *ea_diff_unit(const struct ea_diff *d,
					  struct ea_energy_unit *tmp);
const char *ea_diff_value_unit(const struct ea_diff *d, char *buf, size_t n);

/*
 * Attribution helpers shared by the renderers (src/diff/diff.c). The
 * cluster, P-state and C-state means are NaN for a cluster or state the
 * side's model does not have (diff --models A B: src/diff/rows.h pairs
 * the two sides' rows).
 */
double ea_diff_side_mean(const struct ea_diff_side *s, size_t offset);
double ea_diff_cluster_mean(const struct ea_diff_side *s, int cluster);
double ea_diff_pstate_mean(const struct ea_diff_side *s, int cluster, int k);
double ea_diff_cstate_mean(const struct ea_diff_side *s, int cluster, int k);
/* Idle exits per second, the mean over the runs; NaN when a run lasts 0 s
 * (it has no rate): ea_diff_zero_run() names it. */
double ea_diff_wakeups_mean(const struct ea_diff_side *s);
/* The first run of s that lasts 0 s, or NULL. */
const struct ea_diff_run *ea_diff_zero_run(const struct ea_diff_side *s);
/* Tasks (by comm) whose mean normalised energy moved most; caller frees. */
struct ea_diff_task_delta {
	char comm[EA_COMM_LEN];
	double base, new;
};
size_t ea_diff_task_deltas(const struct ea_diff *d, struct ea_diff_task_delta **out);

#endif
