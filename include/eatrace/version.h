/* SPDX-License-Identifier: GPL-2.0-only */
/* eatrace's version, as --version and the JSON outputs give it. */
#ifndef EATRACE_VERSION_H
#define EATRACE_VERSION_H

#ifndef EA_VERSION
#define EA_VERSION "0.1"
#endif

#endif
