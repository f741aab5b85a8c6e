// SPDX-License-Identifier: GPL-2.0-only
/* PLACEHOLDER: being written. */
#include "input/reader.h"

static int probe(const unsigned char *head, size_t n) { return 0; }
static int open_(void **priv, const char *path, struct ea_input_info *info, struct ea_err *err) { return ea_err_set(err, "%s: reader not written yet", path); }
static int next(void *priv, struct ea_event *ev, struct ea_err *err) { return 0; }
static void where(void *priv, char *buf, size_t n) { buf[0] = 0; }
static void close_(void *priv) {}
const struct ea_reader_ops ea_reader_dat = { "dat", probe, open_, next, where, close_ };
