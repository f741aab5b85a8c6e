// SPDX-License-Identifier: GPL-2.0-only
/*
 * Names escaped for JSON, HTML, CSV and terminals (eatrace/escape.h). A
 * utility below every layer: the renderers use it, and so do the model
 * loader and writer (names as written to JSON) and the progress line.
 */
#include <stdbool.h>
#include <string.h>

#include "eatrace/escape.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD in UTF-8 */

int ea_utf8_seq(const char *str, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)str;
	uint32_t c = s[0], min;
	int len;

	if (c < 0x80) {
		*cp = c;
		return c ? 1 : 0;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		return 0;	/* continuation byte, C0/C1 overlong lead, F5+ */
	}
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* also stops at the NUL */
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

/* The next character of *s as a JSON reader gets it back from ea_esc_json()
 * (a byte that is not UTF-8 as U+FFFD): its bytes and *len; *s moves on. */
static const char *read_back(const char **s, size_t *len)
{
	const char *u = *s;
	uint32_t cp;
	int n = ea_utf8_seq(u, &cp);

	if (!n) {
		*s += 1;
		*len = 3;
		return REPLACEMENT;
	}
	*s += n;
	*len = (size_t)n;
	return u;
}

bool ea_utf8_fixed_eq(const char *a, const char *b)
{
	while (*a && *b) {
		size_t la, lb;
		const char *ua = read_back(&a, &la), *ub = read_back(&b, &lb);

		if (la != lb || memcmp(ua, ub, la))
			return false;
	}
	return !*a && !*b;
}

size_t ea_utf8_fixed_len(const char *s)
{
	size_t n = 0, len;

	while (*s) {
		read_back(&s, &len);
		n += len;
	}
	return n;
}

static int is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

/*
 * Output goes to a FILE or into a buffer; in a buffer each piece (one
 * escape or one character) is written whole or not at all, so a cut never
 * splits an escape or a UTF-8 sequence.
 */
struct sink {
	FILE *f;
	char *buf;
	size_t n, len;
	int full;
};

static void put(struct sink *k, const char *p, size_t len)
{
	if (k->f) {
		fwrite(p, 1, len, k->f);
		return;
	}
	if (k->full || k->len + len >= k->n) {
		k->full = 1;
		return;
	}
	memcpy(k->buf + k->len, p, len);
	k->len += len;
	k->buf[k->len] = '\0';
}

static void puts_(struct sink *k, const char *p)
{
	put(k, p, strlen(p));
}

/* \xNN */
static void put_hex(struct sink *k, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	char e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	put(k, e, 4);
}

/* A control code point shown as the bytes it was: \x1b, or \xc2\x9b. */
static void put_control(struct sink *k, const char *s, int len)
{
	for (int i = 0; i < len; i++)
		put_hex(k, (unsigned char)s[i]);
}

/*
 * One decoding loop serves every escaper; a style says what each kind of
 * character becomes:
 *  - ascii[c]: the text for ASCII character c when it has one (a quote, a
 *    backslash, \n ...), before any other rule;
 *  - a control code point (C0, DEL, C1): \u00XX when json, else the bytes
 *    it was as \xNN;
 *  - each byte that is not part of valid UTF-8: invalid, or \xNN when NULL;
 *  - '/' right after '<' as "\/" when json (no "</script>" in a <script>);
 *  - anything else as its bytes.
 */
struct style {
	const char *const *ascii;	/* 128 entries */
	const char *invalid;
	bool json;
};

static void walk(struct sink *k, const char *s, const struct style *st)
{
	const char *start = s;
	const char *run = s; /* [run, s): bytes kept as they are, not put yet */

	while (*s) {
		uint32_t cp;
		int len;
		char e[8];

		/* plain ASCII kept as it is (most text): one put per run
		 * into a FILE; into a buffer one per character, as a cut
		 * must fall between characters */
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s < 0x7f &&
		    !st->ascii[(unsigned char)*s] &&
		    !(st->json && *s == '/' && s > start && s[-1] == '<')) {
			s++;
			if (!k->f) {
				put(k, s - 1, 1);
				run = s;
			}
			continue;
		}
		if (s > run)
			put(k, run, (size_t)(s - run));
		len = ea_utf8_seq(s, &cp);
		if (!len) {
			if (st->invalid)
				puts_(k, st->invalid);
			else
				put_hex(k, (unsigned char)*s);
			s++;
			run = s;
			continue;
		}
		if (cp < 0x80 && st->ascii[cp]) {
			puts_(k, st->ascii[cp]);
		} else if (st->json && cp == '/' && s > start && s[-1] == '<') {
			put(k, "\\/", 2);
		} else if (is_control(cp)) {
			if (st->json) {
				snprintf(e, sizeof(e), "\\u%04x", (unsigned)cp);
				put(k, e, 6);
			} else {
				put_control(k, s, len);
			}
		} else {
			put(k, s, (size_t)len);
		}
		s += len;
		run = s;
	}
	if (s > run)
		put(k, run, (size_t)(s - run));
}

/* ---- JSON ---- */

static const char *const json_ascii[128] = {
	['"'] = "\\\"", ['\\'] = "\\\\",
	['\n'] = "\\n", ['\r'] = "\\r", ['\t'] = "\\t",
};

static const struct style json_style = { json_ascii, "\\ufffd", true };

static void json(struct sink *k, const char *s)
{
	put(k, "\"", 1);
	walk(k, s, &json_style);
	put(k, "\"", 1);
}

/* ---- HTML ---- */

static const char *const html_ascii[128] = {
	['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;",
	['"'] = "&quot;", ['\''] = "&#39;",
};

static const struct style html_style = { html_ascii, REPLACEMENT, false };

static void html(struct sink *k, const char *s)
{
	walk(k, s, &html_style);
}

/* ---- CSV ---- */

static const char *const csv_ascii[128] = { ['"'] = "\"\"" };

static const struct style csv_style = { csv_ascii, REPLACEMENT, false };

static void csv(struct sink *k, const char *s)
{
	put(k, "\"", 1);
	/* OWASP: a cell starting with = + - @ TAB or CR is a formula to a
	 * spreadsheet; a leading ' makes it text. */
	if (*s && strchr("=+-@\t\r", *s))
		put(k, "'", 1);
	walk(k, s, &csv_style);
	put(k, "\"", 1);
}

/* ---- terminal ---- */

static const char *const term_ascii[128] = { ['\\'] = "\\\\" };
static const char *const msg_ascii[128] = { 0 };

static const struct style term_style = { term_ascii, NULL, false };
static const struct style msg_style = { msg_ascii, NULL, false };

static void term(struct sink *k, const char *s)
{
	walk(k, s, &term_style);
}

static void msg(struct sink *k, const char *s)
{
	walk(k, s, &msg_style);
}

/* ---- entry points ---- */

#define TO_FILE(name, fn)                               \
	void name(FILE *f, const char *s)               \
	{                                               \
		struct sink k = { .f = f };             \
		fn(&k, s ? s : "");                     \
	}

TO_FILE(ea_esc_json, json)
TO_FILE(ea_esc_html, html)
TO_FILE(ea_esc_csv, csv)
TO_FILE(ea_esc_term, term)
TO_FILE(ea_esc_msg, msg)

static const char *to_buf(char *buf, size_t n, const char *s,
			  void (*fn)(struct sink *, const char *))
{
	struct sink k = { .buf = buf, .n = n };

	if (!n)
		return buf;
	buf[0] = '\0';
	fn(&k, s ? s : "");
	return buf;
}

const char *ea_esc_term_buf(char *buf, size_t n, const char *s)
{
	return to_buf(buf, n, s, term);
}

const char *ea_esc_csv_buf(char *buf, size_t n, const char *s)
{
	return to_buf(buf, n, s, csv);
}
