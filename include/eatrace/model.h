/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Platform energy cost model (the 2014 RFC's model, with several idle
 * states). See docs/model-format.md for the file format and SPEC.md
 * "Energy model" for the meaning.
 *
 * Powers are kept both as the file's doubles (for display) and quantised to
 * micro-units (int64, "_u" suffix) for the accountant, which sums energies as
 * integers so that every breakdown adds up exactly to the total.
 *
 * Every array and string of a struct ea_model is malloc()ed and released by
 * ea_model_free(); an importer that builds a model in memory allocates the
 * same way and then calls ea_model_finish().
 */
#ifndef EATRACE_MODEL_H
#define EATRACE_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "eatrace/error.h"

#define EA_NAME_LEN 64
#define EA_MICRO 1000000LL	/* power quantum: 1e-6 power_unit */

/* The file format version this eatrace reads and writes ("eatrace_model"). */
#define EA_MODEL_VERSION 1

/*
 * Sanity limits: values beyond them are refused as typos or unit mistakes
 * (docs/model-format.md, "Limits").
 */
#define EA_MODEL_MAX_CPUS 4096		/* CPU ids 0..4095 (EA_MAX_CPUS) */
#define EA_MODEL_MAX_FREQ_KHZ 100000000u	/* 100 GHz */
#define EA_MODEL_MAX_CAP 4096u		/* 4 x SCHED_CAPACITY_SCALE */
#define EA_MODEL_MAX_POWER 1e9		/* power_unit, and power_unit x s */
#define EA_MODEL_MAX_RESIDENCY_US 100000000u	/* 100 s */
#define EA_MODEL_MAX_CAP_STATES 256	/* per cluster */
#define EA_MODEL_MAX_IDLE_STATES 64	/* per cluster */
#define EA_MODEL_MAX_FILE (16 << 20)	/* bytes */

struct ea_cap_state {
	uint32_t freq_khz;
	uint32_t cap;		/* capacity units, max 1024 on the biggest CPU */
	double core_power;	/* power_unit */
	double cluster_power;
	int64_t core_power_u;	/* micro power_unit */
	int64_t cluster_power_u;
};

struct ea_idle_state {
	char name[EA_NAME_LEN];
	double core_power, cluster_power;	/* power_unit */
	double core_wakeup, cluster_wakeup;	/* power_unit x s per wakeup */
	int64_t core_power_u, cluster_power_u;
	int64_t core_wakeup_u, cluster_wakeup_u;	/* micro power_unit x s */
	uint32_t target_residency_us;
	/* the cpuidle exit latency (the replay's delay before a task placed
	 * on a CPU in this state runs); has_exit_latency false: not given */
	uint32_t exit_latency_us;
	bool has_exit_latency;
};

struct ea_cluster {
	char name[EA_NAME_LEN];
	int *cpus;
	int ncpus;
	bool freq_domain;	/* CPUs share one frequency */
	struct ea_cap_state *caps;	/* ascending capacity */
	int ncaps;
	struct ea_idle_state *idles;	/* shallowest first; index = cpuidle index */
	int nidles;
	/*
	 * The file gave no idle states: idles holds one state "idle" with
	 * zero powers and wakeups, so that every CPU has a state to be idle in.
	 */
	bool idle_implicit;
	/* Power of one CPU of the cluster while offline (CPU hotplug),
	 * "offline_power", default 0. An all-offline cluster draws nothing
	 * beyond its CPUs' offline power. */
	double offline_power;
};

struct ea_model {
	char name[EA_NAME_LEN];
	char *source;
	char *path;		/* file it was loaded from */
	char power_unit[16];
	struct ea_cluster *clusters;
	int nclusters;
	int ncpus;		/* highest CPU id + 1 */
	int *cpu_cluster;	/* cpu -> cluster index, -1 if absent */
	/* Power of all the model's CPUs and clusters together while the
	 * system is suspended (suspend_resume machine_suspend),
	 * "suspend_power", default 0: shared equally by the CPUs. */
	double suspend_power;
};

/*
 * Load a model from a path, or by name from the bundled models (see
 * ea_model_find()). Validates it fully: returns 0, or -1 with err =
 * "FILE:LINE: PATH: cause", PATH being the member at fault, e.g.
 * "clusters[1].cap_states[2].core_power".
 */
int ea_model_load(struct ea_model **model, const char *path_or_name,
		  struct ea_err *err);

/*
 * Same, from text in memory; file names the text in messages (and becomes
 * model->path). The text need not be NUL-terminated.
 */
int ea_model_load_buffer(struct ea_model **model, const char *text,
			 size_t len, const char *file, struct ea_err *err);

/*
 * For importers: validate a model built in memory exactly as the loader
 * validates a file (ranges, ascending states, duplicate CPUs and names),
 * then fill the derived fields: the "_u" micro-unit integers, ncpus and
 * cpu_cluster. A cluster with nidles == 0 gets the implicit idle state.
 * Returns 0, or -1 with err = "NAME: PATH: cause".
 */
int ea_model_finish(struct ea_model *model, struct ea_err *err);

void ea_model_free(struct ea_model *model);

/* Index of the cap state with exactly this frequency, or -1. */
int ea_model_cap_index(const struct ea_cluster *cl, uint32_t freq_khz);

/*
 * Index of the cap state to charge for freq_khz: the exact match, else the
 * lowest state at or above it, else the highest. Returns -1 only for a
 * cluster with no states.
 */
int ea_model_cap_index_nearest(const struct ea_cluster *cl, uint32_t freq_khz);

/* The cluster holding cpu, or NULL when the model has no such CPU. */
const struct ea_cluster *ea_model_cpu_cluster(const struct ea_model *model,
					      int cpu);

/*
 * Is a bare argument a bundled model's name rather than a path? True when
 * it has no '/' and does not end in ".json".
 */
bool ea_model_is_name(const char *arg);

/*
 * Find NAME.json in, in order: each directory of $EATRACE_MODEL_PATH
 * (colon-separated), ./models, the executable's directory's models/,
 * ../share/eatrace/models and ../models, and, when libeatrace is a shared
 * library another program loaded, its directory's ../share/eatrace/models
 * and ../models (all found at run time: no path is compiled in). Writes the
 * path found to path (size n) and returns 0, or -1 with err naming every
 * directory it looked in.
 */
int ea_model_find(const char *name, char *path, size_t n, struct ea_err *err);

/*
 * The model search directories, in the order ea_model_find() uses them.
 * Returns how many were written to dirs (each a malloc()ed string the
 * caller frees), at most max.
 */
int ea_model_search_dirs(char **dirs, int max);

/* Severity of a model-consistency finding. */
enum ea_severity {
	EA_SEV_WARNING,
	EA_SEV_ERROR,
};

typedef void (*ea_finding_fn)(void *ctx, enum ea_severity sev,
			      const char *msg);

/*
 * Consistency checks beyond what the loader refuses (docs/model-format.md,
 * "eatrace model check"): CPU ids contiguous from 0 and each in exactly one
 * cluster, ascending capacities and frequencies, busy core power not below
 * idle core power, deeper idle states drawing no more than shallower ones,
 * and, as warnings, busy cluster power below idle cluster power,
 * inefficient OPPs, power falling as frequency rises, the
 * implicit idle state. Calls fn for each finding (messages have no
 * trailing newline) and returns the number of errors.
 */
int ea_model_check_cb(const struct ea_model *model, ea_finding_fn fn,
		      void *ctx);

/*
 * The same, printing each finding as "MODEL: error: MSG" or
 * "MODEL: warning: MSG" on out (MODEL = model->path, else model->name).
 * Returns the number of errors.
 */
int ea_model_check(const struct ea_model *model, FILE *out);

/*
 * Mark the inefficient cap states of cl the way the kernel's energy model
 * does (em_compute_costs()): with cost = power * max_freq / freq, a state is
 * inefficient when a higher-frequency state costs no more. power is the
 * state's core_power, plus cluster_power / ncpus when shared is true.
 * ineff must have cl->ncaps entries; returns how many are inefficient.
 */
int ea_cluster_inefficient(const struct ea_cluster *cl, bool shared,
			   bool *ineff);

/*
 * Serialise to the native JSON format (docs/model-format.md), in a stable
 * layout that ea_model_load() reads back to the same values. Doubles are
 * written in the shortest form that reads back exactly. Returns 0, or -1
 * when writing fails (errno set).
 */
int ea_model_write_json(const struct ea_model *model, FILE *out);

/*
 * The shortest decimal text that reads back (strtod) to exactly v, as JSON
 * accepts it ("2021", "0.233115234375", "1e+09"); "nan"/"inf" for those.
 * Returns buf.
 */
const char *ea_model_fmt_num(double v, char *buf, size_t n);

#endif
