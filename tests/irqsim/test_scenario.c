// SPDX-License-Identifier: MIT
/*
 * The scenario parser: every verb, every class of malformed input with its
 * FILE:LINE:COL and message, and every built-in scenario parsing cleanly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "scenario.h"

static char err[512];

static struct scenario parse_ok(const char *text)
{
	struct scenario sc;
	int ret = scenario_parse("t.sc", text, &sc, err, sizeof(err));

	assert_eq(ret, 0, "parse failed: %s", err);
	return sc;
}

/* Parse text expecting an error whose message starts with want. */
static void parse_bad(const char *text, const char *want)
{
	struct scenario sc;
	int ret = scenario_parse("t.sc", text, &sc, err, sizeof(err));

	assert_eq(ret, -1, "accepted: %s", text);
	assert_true(!strncmp(err, want, strlen(want)), "got \"%s\", want \"%s...\"", err, want);
	assert_null(sc.actions);
}

UIRQ_TEST(scenario, durations)
{
	uint64_t ns;

	assert_eq(scenario_parse_duration("5ms", 3, &ns), 0);
	assert_eq(ns, 5000000u);
	assert_eq(scenario_parse_duration("200us", 5, &ns), 0);
	assert_eq(ns, 200000u);
	assert_eq(scenario_parse_duration("1s", 2, &ns), 0);
	assert_eq(ns, 1000000000u);
	assert_eq(scenario_parse_duration("1.5ms", 5, &ns), 0);
	assert_eq(ns, 1500000u);
	assert_eq(scenario_parse_duration("250ns", 5, &ns), 0);
	assert_eq(ns, 250u);
	assert_eq(scenario_parse_duration("0s", 2, &ns), 0);
	assert_eq(ns, 0u);
	assert_eq(scenario_parse_duration("5", 1, &ns), -1);
	assert_eq(scenario_parse_duration("ms", 2, &ns), -1);
	assert_eq(scenario_parse_duration("5m", 2, &ns), -1);
	assert_eq(scenario_parse_duration("1.ms", 4, &ns), -1);
	assert_eq(scenario_parse_duration("-1ms", 4, &ns), -1);
	assert_eq(scenario_parse_duration("99999999999999999999s", 21, &ns), -1);
}

UIRQ_TEST(scenario, every_verb)
{
	struct scenario sc = parse_ok(
		"# a comment\n"
		"\n"
		"press\n"
		"release   # trailing comment\n"
		"press 5ms\n"
		"hold 20ms\n"
		"  press\n"
		"bounce 3\n"
		"bounce 2 50us\n"
		"wait 1.5ms\n"
		"storm 12 100\n"
		"storm 12 10 1us\n"
		"shared 3 5\n"
		"shared 3 5 2ms\n"
		"i2c-fault nak\n"
		"i2c-fault error 3\n"
		"i2c-fault timeout 2\n"
		"i2c-fault stuck\n"
		"i2c-fault delay 100us\n"
		"i2c-fault clear\n");

	assert_eq(sc.n, 18u);
	assert_eq(sc.actions[0].verb, SC_PRESS);
	assert_eq(sc.actions[0].hold_ns, 0u);
	assert_eq(sc.actions[0].src_line, 3u);
	assert_eq(sc.actions[1].verb, SC_RELEASE);
	assert_eq(sc.actions[2].hold_ns, 5000000u);
	assert_eq(sc.actions[3].verb, SC_PRESS);
	assert_eq(sc.actions[3].hold_ns, 20000000u);
	assert_eq(sc.actions[5].verb, SC_BOUNCE);
	assert_eq(sc.actions[5].count, 3u);
	assert_eq(sc.actions[5].interval_ns, 200000u);
	assert_eq(sc.actions[6].interval_ns, 50000u);
	assert_eq(sc.actions[7].duration_ns, 1500000u);
	assert_eq(sc.actions[8].verb, SC_STORM);
	assert_eq(sc.actions[8].line, 12u);
	assert_eq(sc.actions[8].count, 100u);
	assert_eq(sc.actions[8].interval_ns, 0u);
	assert_eq(sc.actions[9].interval_ns, 1000u);
	assert_eq(sc.actions[10].verb, SC_SHARED);
	assert_eq(sc.actions[10].interval_ns, 1000000u);
	assert_eq(sc.actions[11].interval_ns, 2000000u);
	assert_eq(sc.actions[12].fault, SC_FAULT_NAK);
	assert_eq(sc.actions[12].count, 1u);
	assert_eq(sc.actions[13].fault, SC_FAULT_ERROR);
	assert_eq(sc.actions[13].count, 3u);
	assert_eq(sc.actions[14].fault, SC_FAULT_TIMEOUT);
	assert_eq(sc.actions[15].fault, SC_FAULT_TIMEOUT);
	assert_eq(sc.actions[16].fault, SC_FAULT_DELAY);
	assert_eq(sc.actions[16].duration_ns, 100000u);
	assert_eq(sc.actions[17].fault, SC_FAULT_CLEAR);
	/* 5 + 20 ms holds, 3 x 200 us + 2 x 50 us bounce, 1.5 ms wait, 10 us storm, 5 + 10 ms shared, 3 s timeouts */
	assert_eq(sc.planned_ns, 25000000u + 700000u + 1500000u + 10000u + 15000000u + 3000000000u);
	scenario_free(&sc);
}

UIRQ_TEST(scenario, empty_and_comments_only)
{
	struct scenario sc = parse_ok("");

	assert_eq(sc.n, 0u);
	sc = parse_ok("# nothing\n   \n\t# still nothing");
	assert_eq(sc.n, 0u);
	sc = parse_ok("hold 1ms");	/* no final newline */
	assert_eq(sc.n, 1u);
	scenario_free(&sc);
	sc = parse_ok("hold 1ms\r\nwait 1ms\r\n");	/* CRLF files */
	assert_eq(sc.n, 2u);
	scenario_free(&sc);
}

UIRQ_TEST(scenario, unknown_verb)
{
	parse_bad("jump\n", "t.sc:1:1: expected an action (press, release, hold, bounce, storm, shared, i2c-fault, wait, unbind, bind), got \"jump\"");
	parse_bad("wait 1ms\n   Press\n", "t.sc:2:4: expected an action");
}

UIRQ_TEST(scenario, bad_duration)
{
	parse_bad("hold 5\n", "t.sc:1:6: expected a duration (e.g. 5ms, 200us, 1s), got \"5\"");
	parse_bad("wait  5 ms\n", "t.sc:1:7: expected a duration");
	parse_bad("bounce 2 fast\n", "t.sc:1:10: expected a duration");
	parse_bad("i2c-fault delay 1x\n", "t.sc:1:17: expected a duration");
}

UIRQ_TEST(scenario, missing_argument)
{
	parse_bad("hold\n", "t.sc:1:5: expected a duration (e.g. 5ms, 200us, 1s) after \"hold\"");
	parse_bad("wait   # forgot\n", "t.sc:1:5: expected a duration (e.g. 5ms, 200us, 1s) after \"wait\"");
	parse_bad("bounce\n", "t.sc:1:7: expected an edge count after \"bounce\"");
	parse_bad("storm 12\n", "t.sc:1:9: expected an edge count after \"storm\"");
	parse_bad("shared\n", "t.sc:1:7: expected an INTC line after \"shared\"");
	parse_bad("i2c-fault\n", "t.sc:1:10: expected a fault (nak, error, timeout, delay, clear) after \"i2c-fault\"");
	parse_bad("i2c-fault delay\n", "t.sc:1:16: expected a duration");
}

UIRQ_TEST(scenario, trailing_junk)
{
	parse_bad("release now\n", "t.sc:1:9: expected end of line, got \"now\"");
	parse_bad("press\nrelease\nhold 5ms 6ms\n", "t.sc:3:10: expected end of line, got \"6ms\"");
	parse_bad("i2c-fault clear all\n", "t.sc:1:17: expected end of line");
	parse_bad("storm 1 2 3us x\n", "t.sc:1:15: expected end of line");
	parse_bad("wait 1ms 2ms 3ms 4ms 5ms 6ms 7ms 8ms 9ms\n", "t.sc:1:");
}

UIRQ_TEST(scenario, out_of_range)
{
	parse_bad("wait 11s\n", "t.sc:1:6: expected a duration of at most 10s, got \"11s\"");
	parse_bad("bounce 0\n", "t.sc:1:8: expected an edge count from 1 to 1000, got \"0\"");
	parse_bad("bounce 1001\n", "t.sc:1:8: expected an edge count from 1 to 1000");
	parse_bad("bounce 99999999999999999999\n", "t.sc:1:8: expected an edge count from 1 to 1000");
	parse_bad("bounce -1\n", "t.sc:1:8: expected an edge count (a whole number), got \"-1\"");
	parse_bad("storm 32 1\n", "t.sc:1:7: expected an INTC line from 0 to 31, got \"32\"");
	parse_bad("storm 7 1\n", "t.sc:1:7: expected an INTC line other than 7 (the TWL4030's INT1)");
	parse_bad("shared 7 1\n", "t.sc:1:8: expected an INTC line other than 7");
	parse_bad("storm 3 1000001\n", "t.sc:1:9: expected an edge count from 1 to 1000000");
	parse_bad("i2c-fault nak 101\n", "t.sc:1:15: expected a transfer count from 1 to 100");
	parse_bad("i2c-fault timeout 6\n", "t.sc:1:19: expected a transfer count from 1 to 5");
	parse_bad("i2c-fault timeout 5\ni2c-fault timeout\n", "t.sc:2:11: expected no more than 5 timeouts");
	parse_bad("i2c-fault delay 200ms\n", "t.sc:1:17: expected a duration of at most 100ms, got \"200ms\"");
	parse_bad("storm 3 10 11ms\n", "t.sc:1:12: expected a duration of at most 10ms, got \"11ms\"");
	parse_bad("bounce 4 11ms\n", "t.sc:1:10: expected a duration of at most 10ms, got \"11ms\"");
}

/*
 * Every duration limit's message names the limit the parser applies: the
 * duration it prints is accepted, one nanosecond more is refused (a limit
 * under a second was printed cut to "0s", which every interval exceeds).
 */
UIRQ_TEST(scenario, duration_limits_print_as_enforced)
{
	static const char *const actions[] = { "wait %s\n", "hold %s\n", "press %s\n", "bounce 4 %s\n",
						"storm 3 10 %s\n", "shared 3 10 %s\n", "i2c-fault delay %s\n" };
	char text[64], limit[32];
	struct scenario sc;

	for (size_t i = 0; i < sizeof(actions) / sizeof(actions[0]); i++) {
		const char *at, *end;
		uint64_t ns;

		snprintf(text, sizeof(text), actions[i], "99s");
		assert_eq(scenario_parse("t.sc", text, &sc, err, sizeof(err)), -1, "%s accepted", text);
		at = strstr(err, "a duration of at most ");
		assert_not_null(at, "%s: %s", text, err);
		at += strlen("a duration of at most ");
		end = strstr(at, ", got \"99s\"");
		assert_not_null(end, "%s: %s", text, err);
		snprintf(limit, sizeof(limit), "%.*s", (int)(end - at), at);
		assert_eq(scenario_parse_duration(limit, strlen(limit), &ns), 0, "%s: limit \"%s\"", text, limit);
		snprintf(text, sizeof(text), actions[i], limit);
		assert_eq(scenario_parse("t.sc", text, &sc, err, sizeof(err)), 0, "%s: %s", text, err);
		scenario_free(&sc);
		snprintf(limit, sizeof(limit), "%lluns", (unsigned long long)ns + 1);
		snprintf(text, sizeof(text), actions[i], limit);
		assert_eq(scenario_parse("t.sc", text, &sc, err, sizeof(err)), -1, "%s accepted", text);
	}
}

UIRQ_TEST(scenario, planned_time_limit)
{
	char text[512] = "";

	for (int i = 0; i < 7; i++)
		strcat(text, "wait 9s\n");
	parse_bad(text, "t.sc:7:1: expected at most 60s of planned time in a scenario");
}

UIRQ_TEST(scenario, button_state)
{
	parse_bad("press\npress\n", "t.sc:2:1: expected \"release\" first: the button is already down (pressed on line 1)");
	parse_bad("release\n", "t.sc:1:1: expected \"press\" first: the button is up");
	parse_bad("press\nhold 1ms\n", "t.sc:2:1: expected \"release\" first");
	/* An odd bounce leaves the button the other way. */
	struct scenario sc = parse_ok("press\nbounce 1\npress\nrelease\nbounce 2\npress\nrelease\n");

	scenario_free(&sc);
	parse_bad("press\nbounce 2\npress\n", "t.sc:3:1: expected \"release\" first");
}

UIRQ_TEST(scenario, line_owners)
{
	parse_bad("storm 5 1\nshared 5 1\n", "t.sc:2:8: expected a line not used by \"storm\" (line 1 of the scenario), got \"5\"");
	parse_bad("shared 5 1\nstorm 5 1\n", "t.sc:2:7: expected a line not used by \"shared\" (line 1 of the scenario)");
}

UIRQ_TEST(scenario, overlong_line)
{
	char text[600];

	memset(text, ' ', 300);
	memcpy(text + 300, "press\n", 7);
	parse_bad(text, "t.sc:1:256: expected at most 255 characters on a line");
	/* 255 characters is fine. */
	memset(text, ' ', 250);
	memcpy(text + 250, "press\n", 7);
	struct scenario sc = parse_ok(text);

	assert_eq(sc.n, 1u);
	scenario_free(&sc);
}

UIRQ_TEST(scenario, long_token_is_shortened)
{
	char text[300] = "hold ";

	memset(text + 5, 'x', 200);
	text[205] = '\n';
	text[206] = '\0';
	parse_bad(text, "t.sc:1:6: expected a duration (e.g. 5ms, 200us, 1s), got \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...\"");
}

UIRQ_TEST(scenario, load_file_and_nul)
{
	char path[] = "/tmp/irqsim-scXXXXXX";
	int fd = mkstemp(path);
	struct scenario sc;

	assert_ge(fd, 0);
	assert_eq(write(fd, "hold 1ms\nwait 1ms\n", 18), 18);
	assert_eq(scenario_load(path, &sc, err, sizeof(err)), 0, "%s", err);
	assert_eq(sc.n, 2u);
	scenario_free(&sc);
	assert_eq(write(fd, "wa\0t 1ms\n", 9), 9);
	assert_eq(scenario_load(path, &sc, err, sizeof(err)), -1);
	char want[128];

	snprintf(want, sizeof(want), "%s:3:3: expected text, got a NUL byte", path);
	assert_true(!strcmp(err, want), "got \"%s\"", err);
	close(fd);
	unlink(path);
	assert_eq(scenario_load("/nonexistent/x.sc", &sc, err, sizeof(err)), -1);
	assert_true(strstr(err, "No such file"), "%s", err);
}

UIRQ_TEST(scenario, builtins_parse)
{
	assert_ge(sc_nr_builtins, 6u);
	const char *want[] = { "default", "short-presses", "bounce", "shared-line", "storm", "i2c-faults" };

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_not_null(scenario_builtin(want[i]), "%s", want[i]);
	for (size_t i = 0; i < sc_nr_builtins; i++) {
		struct scenario sc;
		int ret = scenario_parse(sc_builtins[i].name, sc_builtins[i].text, &sc, err, sizeof(err));

		assert_eq(ret, 0, "%s", err);
		assert_gt(sc.n, 0u);
		scenario_free(&sc);
	}
	/* The default run stays well under the test budget. */
	struct scenario sc;

	assert_eq(scenario_parse("default", scenario_builtin("default")->text, &sc, err, sizeof(err)), 0);
	assert_lt(sc.planned_ns, 1500000000u);
	scenario_free(&sc);
}
