// SPDX-License-Identifier: GPL-2.0-only
/*
 * The escapers of include/eatrace/escape.h on hostile names: quotes,
 * "</script>", an attribute breakout, ESC and BEL, CSV formulas, valid
 * UTF-8 (b\u00fc\u00df) and invalid bytes. Each expected string is written
 * out by hand from the rules in escape.h.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "eatrace/escape.h"

/* What fn writes for s, as a string (freed by the caller). */
static char *run(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, s);
	fclose(f);
	return buf;
}

#define EXPECT(fn, in, want)                                  \
	do {                                                  \
		char *got_ = run(fn, in);                     \
		assert_string_equal(got_, want);              \
		free(got_);                                   \
	} while (0)

static void test_utf8_seq(void **state)
{
	uint32_t cp;

	assert_int_equal(ea_utf8_seq("a", &cp), 1);
	assert_int_equal(cp, 'a');
	assert_int_equal(ea_utf8_seq("\xc3\xbc", &cp), 2);	/* ü */
	assert_int_equal(cp, 0xfc);
	assert_int_equal(ea_utf8_seq("\xe2\x82\xac", &cp), 3);	/* € */
	assert_int_equal(cp, 0x20ac);
	assert_int_equal(ea_utf8_seq("\xf0\x9f\x98\x80", &cp), 4);	/* U+1F600 */
	assert_int_equal(cp, 0x1f600);
	assert_int_equal(ea_utf8_seq("", &cp), 0);
	assert_int_equal(ea_utf8_seq("\xff", &cp), 0);
	assert_int_equal(ea_utf8_seq("\x80", &cp), 0);		/* lone continuation */
	assert_int_equal(ea_utf8_seq("\xc3", &cp), 0);		/* cut at the NUL */
	assert_int_equal(ea_utf8_seq("\xc0\xaf", &cp), 0);	/* overlong '/' */
	assert_int_equal(ea_utf8_seq("\xe0\x80\xaf", &cp), 0);	/* overlong '/' */
	assert_int_equal(ea_utf8_seq("\xed\xa0\x80", &cp), 0);	/* surrogate D800 */
	assert_int_equal(ea_utf8_seq("\xf4\x90\x80\x80", &cp), 0);	/* > U+10FFFF */
}

/* Text as a JSON reader gets it back from ea_esc_json(): U+FFFD (EF BF BD)
 * for each byte that is not UTF-8, everything else as it was. */
static void test_utf8_fixed(void **state)
{
	assert_true(ea_utf8_fixed_eq("", ""));
	assert_true(ea_utf8_fixed_eq("b\xc3\xbc", "b\xc3\xbc"));
	assert_true(ea_utf8_fixed_eq("a\xff" "b", "a\xef\xbf\xbd" "b"));
	assert_true(ea_utf8_fixed_eq("a\xef\xbf\xbd" "b", "a\xff" "b"));
	/* two different invalid bytes read back alike */
	assert_true(ea_utf8_fixed_eq("a\xff", "a\xfe"));
	/* c0 80 (overlong NUL): two invalid bytes, two U+FFFD */
	assert_true(ea_utf8_fixed_eq("\xc0\x80", "\xef\xbf\xbd\xef\xbf\xbd"));
	/* a cut sequence at the end: one U+FFFD */
	assert_true(ea_utf8_fixed_eq("a\xc3", "a\xef\xbf\xbd"));
	assert_false(ea_utf8_fixed_eq("a\xff", "a"));
	assert_false(ea_utf8_fixed_eq("ab", "a"));
	assert_false(ea_utf8_fixed_eq("a", "ab"));
	assert_false(ea_utf8_fixed_eq("\xff\xff", "\xef\xbf\xbd"));
	/* U+FFFD stands in for no valid character */
	assert_false(ea_utf8_fixed_eq("\xc3\xbc", "\xef\xbf\xbd"));
	/* lengths: 3 a U+FFFD, valid UTF-8 as is */
	assert_int_equal(ea_utf8_fixed_len(""), 0);
	assert_int_equal(ea_utf8_fixed_len("b\xc3\xbc"), 3);
	assert_int_equal(ea_utf8_fixed_len("a\xff\xc0\x80"), 10);
	assert_int_equal(ea_utf8_fixed_len("\xe2\x82"), 6);	/* cut euro sign */
}

static void test_json(void **state)
{
	EXPECT(ea_esc_json, "plain", "\"plain\"");
	/* valid UTF-8 passes through as UTF-8 */
	EXPECT(ea_esc_json, "b\xc3\xbc\xc3\x9f", "\"b\xc3\xbc\xc3\x9f\"");
	EXPECT(ea_esc_json, "q\"b\\", "\"q\\\"b\\\\\"");
	/* controls: short forms, else \u00XX; DEL and C1 (U+009B) too */
	EXPECT(ea_esc_json, "\x1b[2J\x07\n\t\r", "\"\\u001b[2J\\u0007\\n\\t\\r\"");
	EXPECT(ea_esc_json, "\x7f\xc2\x9b", "\"\\u007f\\u009b\"");
	/* each invalid byte is one U+FFFD */
	EXPECT(ea_esc_json, "a\xff\xfe" "b\xc3", "\"a\\ufffd\\ufffdb\\ufffd\"");
	/* no "</script>" inside a <script> */
	EXPECT(ea_esc_json, "</script>", "\"<\\/script>\"");
	EXPECT(ea_esc_json, "a/b", "\"a/b\"");
}

static void test_html(void **state)
{
	EXPECT(ea_esc_html, "x\" onload=\"alert(document.domain)",
	       "x&quot; onload=&quot;alert(document.domain)");
	EXPECT(ea_esc_html, "</script><b>&'", "&lt;/script&gt;&lt;b&gt;&amp;&#39;");
	EXPECT(ea_esc_html, "b\xc3\xbc\xc3\x9f", "b\xc3\xbc\xc3\x9f");
	/* controls shown as text; invalid bytes as U+FFFD (EF BF BD) */
	EXPECT(ea_esc_html, "\x1b]0;t\x07", "\\x1b]0;t\\x07");
	EXPECT(ea_esc_html, "a\xff", "a\xef\xbf\xbd");
	/* a C1 control (U+009B) as the two bytes it was; a backslash as is */
	EXPECT(ea_esc_html, "\xc2\x9b\\", "\\xc2\\x9b\\");
}

static void test_csv(void **state)
{
	EXPECT(ea_esc_csv, "kworker/0:1", "\"kworker/0:1\"");
	EXPECT(ea_esc_csv, "a,\"b\"", "\"a,\"\"b\"\"\"");
	/* OWASP: = + - @ TAB CR first get a leading ' inside the quotes */
	EXPECT(ea_esc_csv, "=cmd|' /C calc'!A0", "\"'=cmd|' /C calc'!A0\"");
	EXPECT(ea_esc_csv, "+1", "\"'+1\"");
	EXPECT(ea_esc_csv, "-1", "\"'-1\"");
	EXPECT(ea_esc_csv, "@SUM(A1)", "\"'@SUM(A1)\"");
	EXPECT(ea_esc_csv, "\t=1", "\"'\\x09=1\"");
	EXPECT(ea_esc_csv, "\r=1", "\"'\\x0d=1\"");
	EXPECT(ea_esc_csv, "a=1", "\"a=1\"");
	EXPECT(ea_esc_csv, "", "\"\"");
	EXPECT(ea_esc_csv, "b\xc3\xbc\xc3\x9f\xff", "\"b\xc3\xbc\xc3\x9f\xef\xbf\xbd\"");
	/* DEL and C1 as their bytes; < ' & and a backslash as they are */
	EXPECT(ea_esc_csv, "a\x7f\xc2\x9b<'&\\", "\"a\\x7f\\xc2\\x9b<'&\\\"");
}

/* Messages: as terminal text, but a message may quote an escape. */
static void test_msg(void **state)
{
	(void)state;
	EXPECT(ea_esc_msg, "f\x1b[2J.json:28: \\u0000 in a string",
	       "f\\x1b[2J.json:28: \\u0000 in a string");
	EXPECT(ea_esc_msg, "a\nb\xff", "a\\x0ab\\xff");
	/* quotes and markup are no concern of a terminal */
	EXPECT(ea_esc_msg, "\"</a>&'", "\"</a>&'");
}

static void test_term(void **state)
{
	char buf[16];

	EXPECT(ea_esc_term, "\x1b]0;pwn\x07", "\\x1b]0;pwn\\x07");
	EXPECT(ea_esc_term, "a\nb", "a\\x0ab");
	EXPECT(ea_esc_term, "b\xc3\xbc\xc3\x9f", "b\xc3\xbc\xc3\x9f");
	/* invalid bytes and C1 controls (8-bit CSI) as their bytes */
	EXPECT(ea_esc_term, "\xff\xc2\x9b", "\\xff\\xc2\\x9b");
	/* a backslash doubled, so \x1b in a name is not an escape */
	EXPECT(ea_esc_term, "\\x1b", "\\\\x1b");
	/* into a buffer: cut between escapes, never inside one */
	assert_string_equal(ea_esc_term_buf(buf, sizeof(buf), "abcdefghijkl\x1b"),
			    "abcdefghijkl");	/* 12 + 4 would need 16 + NUL */
	assert_string_equal(ea_esc_term_buf(buf, sizeof(buf), "ab\x1b"), "ab\\x1b");
	assert_string_equal(ea_esc_term_buf(buf, 4, "ab\xc3\xbc"), "ab");
	assert_string_equal(ea_esc_csv_buf(buf, sizeof(buf), "=1"), "\"'=1\"");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_utf8_seq),
		cmocka_unit_test(test_utf8_fixed),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_html),
		cmocka_unit_test(test_csv),
		cmocka_unit_test(test_term),
		cmocka_unit_test(test_msg),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
