/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the fuzz targets (tests/fuzz/fuzz-*.c). Each target defines
 * LLVMFuzzerTestOneInput() and is linked either with libFuzzer (make fuzz)
 * or with replay.c, a plain main() that feeds it files (make test).
 */
#ifndef EATRACE_FUZZ_H
#define EATRACE_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The bytes as a file: one memfd per process, rewritten for each input.
 * Returns its path ("/proc/self/fd/N"), which the code under test open()s
 * like any other file.
 */
static inline const char *fuzz_memfile(const uint8_t *data, size_t size)
{
	static int fd = -1;
	static char path[64];
	size_t off = 0;

	if (fd < 0) {
		fd = memfd_create("fuzz-input", MFD_CLOEXEC);
		if (fd < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	}
	if (ftruncate(fd, 0)) {
		perror("ftruncate");
		abort();
	}
	while (off < size) {
		ssize_t n = pwrite(fd, data + off, size - off, (off_t)off);

		if (n <= 0) {
			perror("pwrite");
			abort();
		}
		off += (size_t)n;
	}
	return path;
}

/* A sink for renderers, so that output code runs too. */
static inline FILE *fuzz_devnull(void)
{
	static FILE *f;

	if (!f && !(f = fopen("/dev/null", "w")))
		abort();
	return f;
}

#endif
