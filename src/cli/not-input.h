/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Before any trace is read: refuse an output file (-o, --html, --perfetto,
 * --emit-trace) that is one of the run's inputs (a trace, a model file),
 * so that the mistake costs no reading and prints nothing first. The
 * output layer refuses the same when the file is opened (src/output/
 * outfile.c); this is the early check.
 */
#ifndef EATRACE_CLI_NOT_INPUT_H
#define EATRACE_CLI_NOT_INPUT_H

#include "eatrace/model.h"

/* outputs[i] may be NULL or "-" (none, stdout); models[i] may be NULL.
 * 0, or says "eatrace: PATH: is an input of this run; refusing to
 * overwrite it" and returns EXIT_ERROR. */
int ea_cli_refuse_inputs_as_outputs(const char *const *outputs, int nout,
				    char *const *traces, int ntraces,
				    const struct ea_model *const *models,
				    int nmodels);

#endif
