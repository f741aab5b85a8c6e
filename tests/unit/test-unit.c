// SPDX-License-Identifier: GPL-2.0-only
/*
 * Energy units (src/energy/unit.c): --unit names, which power units
 * convert, and the exact decimal point shift. Expected strings are written
 * by hand: x mW x s = x mJ = x / 1000 J = x * 1000 uJ.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

#include "eatrace/unit.h"

/* 1e-18 power_unit x s per unit */
#define ATTO 1000000000000000000LL

static void test_names(void **state)
{
	struct ea_energy_unit u;
	struct ea_err err;

	(void)state;
	ea_energy_unit_native(&u, "mW");
	assert_string_equal(u.energy, "mW x s");
	assert_string_equal(u.power, "mW");
	assert_int_equal(u.exp10, 0);
	assert_int_equal(ea_energy_unit_parse(&u, NULL, "bogo", "m", &err), 0);
	assert_string_equal(u.energy, "bogo x s");
	assert_int_equal(ea_energy_unit_parse(&u, "J", "mW", "m", &err), 0);
	assert_string_equal(u.energy, "J");
	assert_string_equal(u.power, "W");
	assert_int_equal(u.exp10, -3);
	assert_int_equal(ea_energy_unit_parse(&u, "uJ", "mW", "m", &err), 0);
	assert_string_equal(u.power, "uW");
	assert_int_equal(u.exp10, 3);
	assert_int_equal(ea_energy_unit_parse(&u, "mJ", "nW", "m", &err), 0);
	assert_int_equal(u.exp10, -6);
	assert_int_equal(ea_energy_unit_parse(&u, "uJ", "W", "m", &err), 0);
	assert_int_equal(u.exp10, 6);
	assert_int_equal(ea_energy_unit_parse(&u, "J", "bogo", "tc2", &err),
			 -1);
	assert_string_equal(
		err.msg,
		"--unit J: model tc2's power_unit 'bogo' is not a unit of "
		"power (W, mW, uW or nW): its energies cannot be converted");
	assert_int_equal(ea_energy_unit_parse(&u, "kJ", "mW", "m", &err), -1);
	assert_string_equal(err.msg, "--unit: 'kJ' is not J, mJ or uJ");
	/* mA (an Android power profile) is a current, not a power */
	assert_int_equal(ea_energy_unit_parse(&u, "mJ", "mA", "m", &err), -1);
}

#define FMT(unit, pu, e, want)                                             \
	do {                                                               \
		assert_int_equal(                                          \
			ea_energy_unit_parse(&u, unit, pu, "m", &err), 0); \
		assert_string_equal(ea_eu_fmt(buf, &u, e), want);          \
	} while (0)

static void test_fmt(void **state)
{
	struct ea_energy_unit u;
	struct ea_err err;
	char buf[EA_EU_BUF];

	(void)state;
	/* 12.345 mW x s */
	FMT(NULL, "mW", (ea_energy_t)12345 * (ATTO / 1000), "12.345");
	FMT("mJ", "mW", (ea_energy_t)12345 * (ATTO / 1000), "12.345");
	FMT("J", "mW", (ea_energy_t)12345 * (ATTO / 1000), "0.012345");
	FMT("uJ", "mW", (ea_energy_t)12345 * (ATTO / 1000), "12345");
	FMT("uJ", "W", (ea_energy_t)12345 * (ATTO / 1000), "12345000");
	FMT("J", "nW", (ea_energy_t)12345 * (ATTO / 1000), "0.000000012345");
	/* zero, whole numbers, negative, the smallest and a large energy */
	FMT("J", "mW", 0, "0");
	FMT("uJ", "mW", 0, "0");
	FMT("uJ", "W", 0, "0");
	FMT("J", "mW", 100 * (ea_energy_t)ATTO, "0.1");
	FMT("uJ", "mW", 1 * (ea_energy_t)ATTO, "1000");
	FMT("J", "mW", -5 * (ATTO / 10), "-0.0005");
	FMT("uJ", "mW", 1, "0.000000000000001");
	FMT("J", "nW", 1, "0.000000000000000000000000001");
	FMT("uJ", "W", (ea_energy_t)ATTO * 1000000000 * 1000000000,
	    "1000000000000000000000000");
	/* the double beside it: 12.345 mW x s in J */
	assert_int_equal(ea_energy_unit_parse(&u, "J", "mW", "m", &err), 0);
	assert_true(ea_eu_energy(&u, (ea_energy_t)12345 * (ATTO / 1000)) ==
		    12.345 * 1e-3);
	assert_true(ea_eu_double(&u, 2000.0) == 2.0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_fmt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
