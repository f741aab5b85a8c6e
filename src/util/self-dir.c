// SPDX-License-Identifier: GPL-2.0-only
/* Where this copy of eatrace runs from (util/self-dir.h). */
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/self-dir.h"

/* The directory part of path into buf (n bytes); -1 if it has none. */
static int dir_of(const char *path, char *buf, size_t n)
{
	const char *slash = strrchr(path, '/');
	size_t len;

	if (!slash)
		return -1;
	len = (size_t)(slash - path);
	if (!len)
		len = 1; /* "/eatrace": the root */
	if (len >= n)
		return -1;
	memcpy(buf, path, len);
	buf[len] = '\0';
	return 0;
}

int ea_self_exe_dir(char *buf, size_t n)
{
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	buf[0] = '\0';
	if (len <= 0)
		return -1;
	exe[len] = '\0';
	if (dir_of(exe, buf, n)) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

int ea_self_lib_dir(char *buf, size_t n)
{
	char real[PATH_MAX];
	Dl_info self, prog;

	buf[0] = '\0';
	/*
	 * dladdr() names the main program by its argv[0], which may be
	 * relative to a directory left since: when this code is linked into
	 * the executable (the one whose program headers AT_PHDR points at),
	 * ask /proc/self/exe instead.
	 */
	if (!dladdr((void *)ea_self_lib_dir, &self) || !self.dli_fname ||
	    !strchr(self.dli_fname, '/') ||
	    (dladdr((void *)getauxval(AT_PHDR), &prog) &&
	     prog.dli_fbase == self.dli_fbase))
		return ea_self_exe_dir(buf, n);
	if (!realpath(self.dli_fname, real) || dir_of(real, buf, n)) {
		buf[0] = '\0';
		return -1;
	}
	return 0;
}

int ea_self_resolve(const char *dir, const char *rel, char *buf, size_t n)
{
	char path[PATH_MAX], real[PATH_MAX];
	struct stat st;

	if (!*dir ||
	    snprintf(path, sizeof(path), "%s/%s", dir, rel) >=
		    (int)sizeof(path) ||
	    !realpath(path, real) || stat(real, &st) || !S_ISDIR(st.st_mode) ||
	    strlen(real) >= n)
		return -1;
	strcpy(buf, real);
	return 0;
}
