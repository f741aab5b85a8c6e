/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names from traces and models (comms, cluster, state and model names, file
 * names) escaped for where they go (src/util/escape.c, docs/robustness.md).
 * They are bytes, usually UTF-8 but not always: every escaper decodes
 * strict UTF-8 (no overlong forms, surrogates or code points past
 * U+10FFFF) and treats each byte of an invalid sequence on its own.
 *
 *  - JSON: a quoted string; valid UTF-8 passes through as UTF-8, controls
 *    (C0, DEL, C1) become \u00XX (\n, \t ... as such), each invalid byte
 *    U+FFFD; "</" is written "<\/" so the text is safe inside <script>.
 *  - HTML (text and attribute values, also SVG/XML): & < > " ' as
 *    entities; controls shown as the text \x1b; invalid bytes U+FFFD.
 *  - CSV: one quoted cell ("" for a quote); a cell that a spreadsheet would
 *    take for a formula (first character = + - @ TAB CR) gets a leading '
 *    (OWASP, CSV injection); controls shown as \x1b, invalid bytes U+FFFD.
 *  - Terminal text: controls (C0, DEL, C1) and each invalid byte as \xNN,
 *    a backslash as \\, so that what is printed is what the bytes were and
 *    nothing reaches the terminal as a control sequence.
 *  - Messages (stderr): as terminal text, but a backslash stays one, so
 *    that a message may quote an escape ("\u0000 in a string").
 */
#ifndef EATRACE_ESCAPE_H
#define EATRACE_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Length (1-4) of the valid UTF-8 sequence at s, its code point in *cp;
 * 0 when s does not start one (or at the terminating NUL). */
int ea_utf8_seq(const char *s, uint32_t *cp);

/*
 * Text as a JSON reader gets it back from ea_esc_json(): each byte that is
 * not part of valid UTF-8 replaced by U+FFFD (3 bytes). Whether a and b
 * read back the same ("a\xff" and "a\xfe" do), and how long s reads back.
 */
bool ea_utf8_fixed_eq(const char *a, const char *b);
size_t ea_utf8_fixed_len(const char *s);

void ea_esc_json(FILE *f, const char *s);
void ea_esc_html(FILE *f, const char *s);
void ea_esc_csv(FILE *f, const char *s);
void ea_esc_term(FILE *f, const char *s);
void ea_esc_msg(FILE *f, const char *s);

/*
 * The same into buf (n bytes, always NUL-terminated, cut only between
 * whole escapes); returns buf. For names printed in aligned columns.
 */
const char *ea_esc_term_buf(char *buf, size_t n, const char *s);
const char *ea_esc_csv_buf(char *buf, size_t n, const char *s);

#endif
