/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared by the fuzz targets (tests/fuzz/fuzz-*.c). Each target defines
 * LLVMFuzzerTestOneInput() and is linked either with libFuzzer (make fuzz)
 * or with replay.c, a plain main() that feeds it files (make test).
 */
#ifndef EATRACE_FUZZ_H
#define EATRACE_FUZZ_H

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

/*
 * A directory tree for the importers that read one (debugfs, wattson): a
 * fresh directory under $TMPDIR (else /tmp) per input, named after the
 * target, filled by fuzz_tree_put() and removed by fuzz_tree_remove()
 * before the next input, so that a killed run leaves at most one behind.
 */
static inline void fuzz_tree_make(char *root, size_t n, const char *target)
{
	const char *tmp = getenv("TMPDIR");

	if ((size_t)snprintf(root, n, "%s/eatrace-fuzz-%s.XXXXXX",
			     tmp && *tmp ? tmp : "/tmp", target) >= n ||
	    !mkdtemp(root))
		abort();
}

/* root/rel holding data, its directories made as needed. */
static inline void fuzz_tree_put(const char *root, const char *rel,
				 const void *data, size_t size)
{
	char path[PATH_MAX + 64], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			abort();
		*slash = '/';
	}
	if (!(f = fopen(path, "wb")) || fwrite(data, 1, size, f) != size ||
	    fclose(f))
		abort();
}

static inline int fuzz_tree_rm1(const char *path, const struct stat *st,
				int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static inline void fuzz_tree_remove(char *root)
{
	if (nftw(root, fuzz_tree_rm1, 16, FTW_DEPTH | FTW_PHYS))
		fprintf(stderr, "fuzz: could not remove %s\n", root);
	root[0] = 0;
}

#endif
