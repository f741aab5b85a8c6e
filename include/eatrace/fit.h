/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Fitting an energy table to measured energy (docs/model-fit.md).
 *
 * The accountant (eatrace/energy.h) is linear in the model's coefficients:
 * a window's energy is the sum, over coefficients, of a coefficient times a
 * feature the trace gives (busy CPU-seconds at each OPP, cluster-busy
 * seconds at each OPP, idle CPU-seconds and cluster-idle seconds per idle
 * state, CPU and cluster wakeups per idle state, offline CPU-seconds,
 * suspended seconds). src/fit computes those features per measurement
 * window, reads the measurements (a CSV, or a Perfetto trace's power
 * rails), and fits the coefficients by non-negative least squares under the
 * physical constraints the initial table satisfies; coefficients the data
 * cannot determine keep their initial value and are listed as held.
 *
 *   coefs.c        the coefficient table: keys, values in a model
 *   features.c     a state consumer: features per time segment
 *   measured.c     the measurement CSV reader, and --window merging
 *   rail-windows.c measurement windows from a trace's power rails
 *   railmap.c      which clusters a rail measures
 *   rows.c         one trace: its windows, features, one row per window
 *   weights.c      how the fit weighs the windows
 *   identify.c     which coefficients the rows determine
 *   constraints.c  the physical constraints kept (G x >= h)
 *   nnls.c         non-negative least squares (Lawson-Hanson, GSL SVD)
 *   lsi.c          least squares with inequality constraints (via LDP)
 *   solve.c        the fit: held part, scaling, LSI, confidence intervals
 *   fitted.c       the fitted model: values, rounding, source text
 *   errors.c       error figures per rail, worst windows
 *   fit.c          one run: traces -> rows -> fit -> figures
 */
#ifndef EATRACE_FIT_H
#define EATRACE_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "eatrace/energy.h"
#include "eatrace/error.h"
#include "eatrace/model.h"
#include "eatrace/state.h"

/* ---- coefficients (coefs.c) ---- */

enum ea_coef_kind {
	EA_CK_CORE_BUSY, /* cap state core_power: busy CPU-seconds */
	EA_CK_CLUSTER_BUSY, /* cap state cluster_power: cluster-busy s */
	EA_CK_CORE_IDLE, /* idle state core_power: idle CPU-seconds */
	EA_CK_CLUSTER_IDLE, /* idle state cluster_power: cluster-idle s */
	EA_CK_CORE_WAKEUP, /* idle state core_wakeup: CPU exits */
	EA_CK_CLUSTER_WAKEUP, /* idle state cluster_wakeup: cluster exits */
	EA_CK_OFFLINE, /* cluster offline_power: offline CPU-seconds */
	EA_CK_SUSPEND, /* model suspend_power: suspended seconds */
};

#define EA_COEF_KEY_LEN (2 * EA_NAME_LEN + 32)

struct ea_coef {
	int cluster; /* -1 for suspend_power */
	enum ea_coef_kind kind;
	int state; /* cap or idle state index (0 otherwise) */
	char key[EA_COEF_KEY_LEN]; /* "A15.1200000.core_power" ... */
	double initial;
};

/*
 * The coefficients of a model, cluster by cluster: core_busy[ncaps],
 * cluster_busy[ncaps], core_idle[nidles], cluster_idle[nidles],
 * core_wakeup[nidles], cluster_wakeup[nidles], offline; then
 * suspend_power last. base[i] is cluster i's first, base[nclusters] the
 * suspend coefficient's index (n - 1).
 */
struct ea_coefs {
	struct ea_coef *c;
	int n;
	int nclusters;
	int *base;
};

int ea_coefs_build(struct ea_coefs *cs, const struct ea_model *m,
		   struct ea_err *err);
void ea_coefs_free(struct ea_coefs *cs);
/* Index of a cluster's coefficient of this kind and state. */
int ea_coef_index(const struct ea_coefs *cs, const struct ea_model *m,
		  int cluster, enum ea_coef_kind kind, int state);
/* The coefficient's value in model m, and setting it. */
double ea_coef_get(const struct ea_model *m, const struct ea_coef *c);
void ea_coef_set(struct ea_model *m, const struct ea_coef *c, double v);
/* Mark (mark[i] = true) the coefficients whose key matches pattern
 * (fnmatch(3), case-sensitive); returns how many match. */
int ea_coefs_match(const struct ea_coefs *cs, const char *pattern, bool *mark);
/* "core_power", "cluster_wakeup" ...: the model member a kind sets. */
const char *ea_coef_member(enum ea_coef_kind kind);
/* Whether a kind is an energy per wakeup (else a power). */
static inline bool ea_coef_is_wakeup(enum ea_coef_kind k)
{
	return k == EA_CK_CORE_WAKEUP || k == EA_CK_CLUSTER_WAKEUP;
}

/* ---- features (features.c) ---- */

/*
 * A state consumer that mirrors the accountant's rules (src/energy/
 * account.c) but, instead of energy, adds up per coefficient what the
 * energy multiplies: nanoseconds for powers, counts for wakeups, over the
 * time segments [bounds[i], bounds[i + 1]). The feature index of a
 * coefficient is its index in struct ea_coefs; after them, one slot per
 * cluster holds its CPUs' suspended CPU-nanoseconds (suspend_power is the
 * whole system's, shared by the CPUs: ea_features_suspend_share()).
 *
 * Identity (tests/unit/test-fit.c): for each segment and cluster, the sum
 * of features x the accountant's quantised prices equals the accountant's
 * energy for that cluster and window, exactly, except the suspended part
 * (shared in integers by the accountant: equal within rounding).
 */
struct ea_features {
	const struct ea_model *model;
	const struct ea_coefs *coefs;
	uint32_t assumed_khz; /* as struct ea_acct_config's */
	uint64_t *bounds; /* nseg + 1, ascending (owned) */
	size_t nseg;
	int nfeat; /* coefs->n + nclusters */
	uint64_t *v; /* nseg x nfeat */
	int n_known; /* CPUs sharing suspend power (at the end) */
	char error[256];
	/* private: the accountant's view of every CPU */
	struct ea_feat_cpu {
		struct ea_cpu_state st;
	} * cpus;
	int ncpus;
	int st_known;
	uint64_t *cl_last; /* per cluster: integrated up to */
	uint64_t clip_start, clip_end;
};

#define EA_FIT_MAX_SEGMENTS (1 << 22)

/* bounds (nbounds >= 2, ascending, copied). 0 or -1 with err. */
int ea_features_init(struct ea_features *f, const struct ea_model *m,
		     const struct ea_coefs *cs, uint32_t assumed_khz,
		     const uint64_t *bounds, size_t nbounds,
		     struct ea_err *err);
void ea_features_free(struct ea_features *f);
extern const struct ea_state_ops ea_features_ops;
/* After ea_state_finish(). 0 or -1 with err. */
int ea_features_done(struct ea_features *f, const struct ea_state *s,
		     struct ea_err *err);
static inline const uint64_t *ea_features_at(const struct ea_features *f,
					     size_t seg)
{
	return f->v + seg * (size_t)f->nfeat;
}
/* Suspended seconds the cluster's CPUs pay of suspend_power over the
 * segment (their share, as the accountant divides it). */
double ea_features_suspend_share(const struct ea_features *f, size_t seg,
				 int cluster);
/* Energy the accountant gives cluster ci over segment seg with model m's
 * prices (m has f's layout), without its suspended part. */
ea_energy_t ea_features_energy(const struct ea_features *f, size_t seg, int ci,
			       const struct ea_model *m);

/* ---- measurements (measured.c, rail-windows.c) ---- */

#define EA_FIT_RAIL_LEN 64

struct ea_meas_win {
	uint64_t t0, t1; /* ns, the trace's clock */
	int rail; /* index into struct ea_meas.rails */
	double energy; /* power_unit x s */
	uint32_t line; /* CSV line (first one, when merged); or
			  rail sample index + 1 */
};

struct ea_meas {
	char *source; /* the CSV's path, or the trace's */
	bool from_rails;
	char (*rails)[EA_FIT_RAIL_LEN];
	char (*subsys)[EA_FIT_RAIL_LEN]; /* "" for CSV rails */
	uint32_t *rail_line; /* first line (or sample) of each rail */
	int nrails;
	struct ea_meas_win *w; /* per rail in time order */
	size_t n;
	size_t dropped; /* rail windows not used (reset counter,
			   outside the trace) */
};

/*
 * CSV "start_s,end_s,rail,energy": times in the trace's own seconds,
 * energy in power_unit x s. A header line (start_s,...), blank lines and
 * '#' comments are allowed. Each rail's windows must follow each other
 * without gap or overlap. 0, or -1 with err "FILE:LINE: cause".
 */
int ea_meas_read_csv(struct ea_meas **out, const char *path,
		     struct ea_err *err);

struct ea_rails;
/*
 * Windows between consecutive samples of each power rail the caller uses
 * (use_rail[i] for rs->r[i]), energies converted from uWs to the model's
 * power_unit (uws_per_unit). A counter going back (a reset) gives no
 * window there (counted in dropped). 0 or -1 with err.
 */
int ea_meas_from_rails(struct ea_meas **out, const char *trace,
		       const struct ea_rails *rs, const bool *use_rail,
		       double uws_per_unit, struct ea_err *err);
void ea_meas_free(struct ea_meas *m);
/* Merge consecutive, contiguous windows of each rail until each spans at
 * least min_ns (the last of a run may be shorter). 0, or -1 out of memory. */
int ea_meas_merge(struct ea_meas *m, uint64_t min_ns);

/* --rail RAIL=CLUSTER[+CLUSTER...] (railmap.c) */
struct ea_fit_railmap {
	const char *rail;
	const char *clusters; /* "A53+A57" */
};

/*
 * Which clusters rail name (and subsys) feeds: the maps first (names
 * compared without regard to case), else the name rule of
 * docs/perfetto.md. feeds has nclusters entries; returns how many, or -1
 * with err when a map names a cluster the model lacks.
 */
int ea_fit_rail_feeds(const struct ea_model *m,
		      const struct ea_fit_railmap *maps, int nmaps,
		      const char *name, const char *subsys, bool *feeds,
		      const char **mapped_by, struct ea_err *err);

/*
 * RAIL=CLUSTER[+CLUSTER...] as given; when the right side names no
 * cluster but the left side does (report's --rail CLUSTER=RAIL), the two
 * are swapped. -1 with err when neither side names clusters.
 */
int ea_fit_railmap_orient(const struct ea_model *m, struct ea_fit_railmap *map,
			  struct ea_err *err);

/* ---- one run: traces, rows, fit, figures (fit.c) ---- */

struct ea_fit_input {
	const char *trace;
	const char *measured; /* CSV; NULL: the trace's power rails */
};

struct ea_fit_config {
	const struct ea_fit_input *in;
	int nin;
	const struct ea_fit_railmap *maps;
	int nmaps;
	uint64_t window_ns; /* merge windows to at least this; 0: not */
	const char *const *hold; /* --hold patterns */
	int nhold;
	uint32_t assumed_khz; /* --assume-opp */
	struct ea_state_config scfg; /* window, idle-state options */
	bool fit; /* false: figures of the model only (check) */
	int nworst; /* worst windows kept */
	double confidence; /* of the intervals, e.g. 0.95 */
	bool equal_weights; /* absolute errors; default: relative */
};

/* One measurement window. */
struct ea_fit_row {
	int input; /* index into the config's inputs */
	int rail; /* index into struct ea_fit.rails */
	uint64_t t0, t1;
	uint32_t line; /* CSV line (or rail sample + 1) */
	double measured;
	double before, after; /* estimates: initial and fitted model */
};

/* The error of one model over a set of windows. */
struct ea_fit_err {
	double estimate; /* sum over the windows */
	double total_pct; /* (estimate - measured) / measured x 100 */
	double mae; /* mean |estimate - measured| per window */
	double mae_pct; /* sum |e - m| / sum m x 100 */
	double max_abs_pct; /* largest |e - m| / m of a window, % */
};

struct ea_fit_rail {
	char name[EA_FIT_RAIL_LEN];
	bool *feeds; /* [nclusters] */
	const char *mapped_by; /* "option" or "name" */
	size_t nwin;
	double measured; /* sum over its windows */
	struct ea_fit_err before, after;
};

enum ea_coef_status {
	EA_COEF_FITTED,
	EA_COEF_HELD,
};

struct ea_fit_coef {
	enum ea_coef_status status;
	char reason[160]; /* held: why ("never used ...", "--hold") */
	double value; /* fitted, or the initial value when held */
	double se; /* standard error; NaN: none */
	double ci_low, ci_high; /* NaN: none */
	bool at_bound; /* a kept constraint is active on it */
};

struct ea_fit {
	const struct ea_model *initial;
	struct ea_model *fitted; /* NULL without a fit */
	struct ea_coefs coefs;
	struct ea_fit_coef *coef; /* coefs.n */
	int nfitted, nheld;
	struct ea_fit_rail *rails;
	int nrails;
	struct ea_fit_row *rows;
	size_t nrows;
	double *A; /* nrows x coefs.n: each window's features */
	size_t *input_rows; /* per input: its number of rows */
	size_t *input_dropped; /* per input: rail windows not used */
	struct ea_fit_err all_before, all_after; /* every window */
	double all_measured;
	bool relative; /* weights: relative errors (sigma: a share) */
	double sigma; /* residual standard deviation (fit): in
			 power_unit x s, or relative (a fraction) */
	int dof; /* windows - fitted coefficients */
	double t_quantile; /* for the intervals */
	double confidence;
	int nconstraints, nactive;
	char (*active)[192]; /* the active constraints, in words */
	size_t *worst; /* row indices, worst first */
	int nworst;
	bool fitted_ok;
};

/* 0, or -1 with err (a one-line "FILE:LINE: cause" for bad input). */
int ea_fit_run(struct ea_fit *r, const struct ea_model *initial,
	       const struct ea_fit_config *cfg, struct ea_err *err);
void ea_fit_free(struct ea_fit *r);

/* ---- pieces fit.c combines (exported for the tests) ---- */

/*
 * min ||A x - b|| subject to x >= 0 (Lawson and Hanson's NNLS): A is m x n
 * row-major. 0 (x set), or -1 when GSL fails or it does not converge.
 */
int ea_nnls(const double *A, const double *b, int m, int n, double *x);

/*
 * min ||E x - f|| subject to G x >= h (Lawson and Hanson's LSI through
 * LDP): E is m x n (m >= n, full column rank), G is mg x n, row-major.
 * 0 (x set), 1 infeasible constraints, -1 GSL failed.
 */
int ea_lsi(const double *E, const double *f, int m, int n, const double *G,
	   const double *h, int mg, double *x);

/* A linear constraint on the coefficients: sum g[k] x[idx[k]] >= h. */
struct ea_fit_constraint {
	int idx[2];
	double g[2];
	int nterms;
	double h;
	char what[160]; /* in words */
};

/* The result of ea_fit_solve(); x and se have n entries (the caller's). */
struct ea_fit_solution {
	double *x; /* fitted; the initial value when held */
	double *se; /* standard error; NaN when held or no freedom left */
	int p; /* free coefficients */
	int dof; /* windows - p */
	double sigma; /* residual standard deviation (NaN: dof <= 0) */
	double t; /* Student-t quantile of the intervals */
};

/*
 * The constrained least-squares fit of the free coefficients (solve.c):
 * A (nrows x n, row-major) and b the windows' features and measurements,
 * x0 the initial values (kept where held). 0, or -1 (GSL failed, fewer
 * windows than free coefficients, or infeasible constraints).
 */
int ea_fit_solve(const double *A, const double *b, size_t nrows, int n,
		 const bool *held, const double *x0,
		 const struct ea_fit_constraint *cons, int ncons,
		 double confidence, struct ea_fit_solution *sol);
/* Remove round-off violations of the constraints from x, moving free
 * coefficients only (the least amount, to the exact bound). */
void ea_fit_enforce(double *x, const bool *held,
		    const struct ea_fit_constraint *cons, int ncons);

/* The physical constraints the initial model satisfies (constraints.c). */
int ea_fit_constraints(const struct ea_model *m, const struct ea_coefs *cs,
		       struct ea_fit_constraint **out, int *n);

/*
 * The fitted model (fitted.c): initial with x (free coefficients rounded
 * to 6 significant digits in x itself, constraints enforced again), the
 * name marked "(fitted)", source set; path names it in messages. 0 or -1.
 */
int ea_fit_make_model(struct ea_model **out, const struct ea_model *initial,
		      const struct ea_coefs *cs, double *x, const bool *held,
		      const struct ea_fit_constraint *cons, int ncons,
		      const char *source, const char *path, struct ea_err *err);

/* Error figures of the windows of one rail (-1: all), before or after
 * the fit (errors.c). */
void ea_fit_error(const struct ea_fit_row *rows, size_t n, int rail, bool after,
		  double *measured, size_t *nwin, struct ea_fit_err *e);
/* The k windows with the largest |estimate - measured| (out: indices,
 * worst first); returns how many, or -1 out of memory. */
int ea_fit_worst(const struct ea_fit_row *rows, size_t n, bool after, int k,
		 size_t *out);

/*
 * Which coefficients the rows determine (identify.c): held[i] is set
 * (with reason) for columns never used, and then, while the free columns
 * are linearly dependent, for the one a fixed priority picks in each
 * dependency. A is nrows x n row-major. 0 or -1 (out of memory / GSL).
 */
int ea_fit_identify(const double *A, size_t nrows, const struct ea_coefs *cs,
		    const struct ea_model *m, bool *held, char (*reason)[160]);

#endif
