/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libtracecmd 3.1 exports tracecmd_read_next_data(), tracecmd_cpus() and a
 * few more without declaring them in its public header (they live in
 * trace-cmd-private.h, which Debian does not ship): declared here with the
 * signatures of trace-cmd 3.1, for the trace.dat reader's files.
 */
#ifndef EATRACE_INPUT_DAT_TRACECMD_H
#define EATRACE_INPUT_DAT_TRACECMD_H

#include <stddef.h>

#include <trace-cmd.h>

int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
struct tep_record *tracecmd_read_next_data(struct tracecmd_input *handle,
					   int *rec_cpu);
struct tep_record *tracecmd_peek_next_data(struct tracecmd_input *handle,
					   int *rec_cpu);
unsigned long long tracecmd_get_cursor(struct tracecmd_input *handle, int cpu);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
long long tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);
int tracecmd_set_cursor(struct tracecmd_input *handle, int cpu, size_t offset);
struct tracecmd_input *tracecmd_alloc_fd(int fd, int flags);
int tracecmd_read_headers(struct tracecmd_input *handle, int state);

#endif
