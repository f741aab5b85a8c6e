/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where this copy of eatrace is installed, found at run time (not a path
 * compiled in): the directory of the running executable, and of the file
 * holding libeatrace's code (the shared library, when a program or Python
 * loaded it as one). Data files (models, docs) are looked for relative to
 * them, so that `make install PREFIX=P` after `make` finds P's.
 */
#ifndef EATRACE_UTIL_SELF_DIR_H
#define EATRACE_UTIL_SELF_DIR_H

#include <stddef.h>

/* The running executable's directory (/proc/self/exe): 0, or -1 with
 * buf "" when unknown. */
int ea_self_exe_dir(char *buf, size_t n);

/*
 * The directory of the file libeatrace's code was loaded from: the shared
 * library's (libeatrace.so.0, by dladdr()), or the executable's when it
 * is linked in. 0, or -1 with buf "" when unknown.
 */
int ea_self_lib_dir(char *buf, size_t n);

/*
 * dir/rel made absolute with its "." and ".." resolved (realpath), when it
 * is an existing directory: 0 with buf set, else -1.
 */
int ea_self_resolve(const char *dir, const char *rel, char *buf, size_t n);

#endif
