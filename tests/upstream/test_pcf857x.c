// SPDX-License-Identifier: MIT
/*
 * The kernel's drivers/gpio/gpio-pcf857x.c, unmodified, on a PCF8574 and a
 * PCF8575 model (devices/pcf857x.c): probed from a device-tree node, a
 * gpio_chip whose lines a consumer drives and reads through its
 * callbacks, and an irq chip whose lines a consumer requests as a kernel
 * driver would (gpio_chip.to_irq(), request_threaded_irq()), their
 * handlers run nested in the expander's own irq thread.  Every test runs
 * over UP_SEEDS seeds; lockdep stays silent and everything is freed.
 *
 * What a user would not expect, each asserted as the kernel behaves:
 *   - the chip cannot tell edges apart and the driver has no irq_set_type:
 *     a line requested IRQF_TRIGGER_FALLING runs its handler on the press
 *     and on the release alike;
 *   - a pulse shorter than the driver's reaction is no change at all (the
 *     chip's INT goes back when the port does): exploration sees both
 *     outcomes, never half of one;
 *   - the handler takes a failed read's error code for the port: lines
 *     that did not change run their handlers, and the expander's INT stays
 *     asserted with its falling-edge parent line already taken, so no
 *     interrupt comes again until something reads the port.
 */
#define _GNU_SOURCE
#include <linux/gpio/driver.h>

#include "board.h"
#include "pcf857x.h"

#define ADDR		0x20
#define LINE		3
#define BUTTON		4
#define OPTS		.timeout = 300

static struct pcf857x *chip;
static struct gpio_chip *gc;

/* ---- the bus, as a trace: "r:ff" a read of the port, "w:fb" a write of the latch ---- */

static char bus[512];

static void bus_trace(const struct uirq_i2c_trace *t, void *arg)
{
	size_t n = strlen(bus);

	(void)arg;
	for (int m = 0; m < t->num && n + 16 < sizeof(bus); m++) {
		const struct uirq_i2c_msg *msg = &t->msgs[m];

		n += (size_t)snprintf(bus + n, sizeof(bus) - n, "%s%c:", n ? " " : "",
				      msg->flags & UIRQ_I2C_M_RD ? 'r' : 'w');
		if (t->ret < 0)
			n += (size_t)snprintf(bus + n, sizeof(bus) - n, "%d", t->ret);
		else
			for (int i = 0; i < msg->len && n + 4 < sizeof(bus); i++)
				n += (size_t)snprintf(bus + n, sizeof(bus) - n, "%02x", msg->buf[i]);
	}
}

static void destroy_chip(void)
{
	uirq_i2c_set_trace(uirq_i2c_sim_adapter(ub.sim), NULL, NULL);
	pcf857x_destroy(chip);
}

static int is_ours(struct gpio_chip *c, void *data)
{
	return c->parent == data;
}

/* The board: the expander (ngpio lines, the name the board gives it) at ADDR, INT on LINE; probed. */
static void board(unsigned int cpus, unsigned int ngpio, const char *name, u32 n_latch)
{
	struct i2c_board_info info = { .addr = ADDR };
	char compatible[32];

	up_begin(cpus);
	bus[0] = '\0';
	uirq_i2c_set_trace(uirq_i2c_sim_adapter(ub.sim), bus_trace, NULL);
	/* The device tree says falling edge: INT is active low. */
	info.irq = (int)up_line(LINE, UIRQ_TYPE_EDGE_FALLING);
	assert_eq(pcf857x_create(ub.sim, ADDR, ngpio, ub.intc, LINE, &chip), 0);
	snprintf(info.type, sizeof(info.type), "%s", name);
	snprintf(compatible, sizeof(compatible), "nxp,%s", name);
	info.of_node = up_node("gpio@20", compatible, ADDR);
	if (n_latch)
		assert_eq(uirq_of_node_add_u32s(ub.np, "lines-initial-states", &n_latch, 1), 0);
	up_probe(&info);
	gc = gpiochip_find(&ub.client->dev, is_ours);
	assert_not_null(gc, "no gpio_chip registered:\n%s", up_log);
}

static void begin8(unsigned int cpus)
{
	board(cpus, 8, "pcf8574", 0);
}

static void end(void)
{
	up_end(destroy_chip);
}

/*
 * Probe: the presence check and the status, two reads of the port, and
 * nothing written - the latch stays as power-on left it; a gpio_chip of 8
 * lines named after the client, behind a sleeping bus, with an irq domain.
 */
SIM_TEST_SEEDS(pcf857x, probe_reads_the_port_twice, UP_SEEDS, begin8, end, OPTS)
{
	assert_str_eq(bus, "r:ff r:ff");
	assert_eq(gc->ngpio, 8);
	assert_str_eq(gc->label, "pcf8574");
	assert_true(gc->can_sleep);
	assert_not_null(gc->irq.domain);
	assert_eq(pcf857x_latch(chip), 0xff);
	assert_true(up_logged("probed"), "%s", up_log);
}

/*
 * Lines in and out through the chip's callbacks: an output writes the
 * whole latch; a read is a read of the port, where something outside
 * pulling an input low shows; direction_input() writes its bit back to 1.
 */
SIM_TEST_SEEDS(pcf857x, lines_in_and_out, UP_SEEDS, begin8, end, OPTS)
{
	bus[0] = '\0';
	assert_eq(gc->direction_output(gc, 2, 0), 0);
	assert_eq(pcf857x_latch(chip), 0xfb);
	assert_eq(gc->get(gc, 2), 0);
	assert_eq(gc->get(gc, 5), 1);
	/* A change interrupts: the driver's thread reads the port (the first r:db). */
	pcf857x_pull(chip, 5, true);
	up_sleep_ms(5);
	assert_eq(gc->get(gc, 5), 0);
	gc->set(gc, 7, 0);
	assert_eq(gc->direction_input(gc, 2), 0);
	assert_eq(pcf857x_latch(chip), 0x7f);
	assert_str_eq(bus, "w:fb r:fb r:fb r:db r:db w:7b w:7f");
	pcf857x_pull(chip, 5, false);
	up_sleep_ms(5);
}

/*
 * lines-initial-states (bits set: lines to drive low) sets the driver's
 * copy of the latch only: nothing is written at probe, the chip keeps its
 * power-on ones until the first write, which carries the low bits along.
 */
static void begin_latched(unsigned int cpus)
{
	board(cpus, 8, "pcf8574", 0x03);
}

SIM_TEST_SEEDS(pcf857x, initial_states_wait_for_the_first_write, UP_SEEDS, begin_latched, end, OPTS)
{
	assert_str_eq(bus, "r:ff r:ff");
	assert_eq(pcf857x_latch(chip), 0xff);
	assert_eq(gc->direction_output(gc, 4, 1), 0);
	assert_eq(pcf857x_latch(chip), 0xfc);
}

/* ---- a consumer: a driver with a button on line BUTTON ---- */

static struct {
	unsigned int irq;
	unsigned long runs[16];		/* handler runs per line */
	int level[16];			/* the line's level each handler read */
	bool no_read;			/* the handlers read nothing */
	bool nested;			/* every run was in the expander's thread */
	char thread[16];
} btn;

static irqreturn_t button_thread(int irq, void *data)
{
	unsigned int line = (unsigned int)(uintptr_t)data;
	char name[16] = "";
	char want[16];

	harness_thread_name(name);
	snprintf(want, sizeof(want), "irq/%u-", ub.irq);
	btn.nested &= strncmp(name, want, strlen(want)) == 0;
	snprintf(btn.thread, sizeof(btn.thread), "%s", name);
	btn.runs[line]++;
	/* The handler may sleep: reading the line is a transfer on the bus. */
	if (!btn.no_read)
		btn.level[line] = gc->get(gc, line);
	(void)irq;
	return IRQ_HANDLED;
}

/* Line line as an interrupt, as a kernel driver asks for it (gpiod_to_irq(), then a threaded handler). */
static unsigned int request_line(unsigned int line, unsigned long flags)
{
	int irq = gc->to_irq(gc, line);

	assert_gt(irq, 0);
	assert_eq(request_threaded_irq((unsigned int)irq, NULL, button_thread, flags | IRQF_ONESHOT, "button",
				       (void *)(uintptr_t)line),
		  0, "%s", up_log);
	return (unsigned int)irq;
}

static void begin_button(unsigned int cpus)
{
	begin8(cpus);
	memset(&btn, 0, sizeof(btn));
	btn.nested = true;
	btn.irq = request_line(BUTTON, IRQF_TRIGGER_FALLING);
	assert_true(gpiochip_line_is_irq(gc, BUTTON), "locked as an interrupt");
}

static void end_button(void)
{
	free_irq(btn.irq, (void *)(uintptr_t)BUTTON);
	assert_false(gpiochip_line_is_irq(gc, BUTTON));
	end();
}

/*
 * Press and release, each given time to be handled: the button's handler
 * runs for each - the falling edge it asked for and the rising one too,
 * which the chip cannot tell apart - in the expander's own thread, and
 * reads the level it was called for; the read released INT.  A line
 * nobody requested changes: no handler.
 */
SIM_TEST_SEEDS(pcf857x, both_edges_run_the_handler, UP_SEEDS, begin_button, end_button, OPTS)
{
	pcf857x_pull(chip, BUTTON, true);
	up_sleep_ms(5);
	assert_eq(btn.runs[BUTTON], 1ul);
	assert_eq(btn.level[BUTTON], 0, "pressed");
	assert_false(pcf857x_int_asserted(chip));
	pcf857x_pull(chip, BUTTON, false);
	up_sleep_ms(5);
	assert_eq(btn.runs[BUTTON], 2ul, "IRQF_TRIGGER_FALLING, and the release ran it too");
	assert_eq(btn.level[BUTTON], 1, "released");
	assert_true(btn.nested, "a handler ran in %s, not irq/%u-*", btn.thread, ub.irq);
	pcf857x_pull(chip, 6, true);
	up_sleep_ms(5);
	assert_eq(btn.runs[6], 0ul);
	assert_false(pcf857x_int_asserted(chip), "the thread read the port all the same");
	pcf857x_pull(chip, 6, false);
	up_sleep_ms(5);
}

/*
 * A press and release with no time between them: if the expander's thread
 * reads the port before the release, both run the handler; if after, the
 * port is back where it was, INT went back with it, and the thread finds
 * no change: nothing runs.  Never one without the other - the driver ends
 * every run agreeing with the pins - and exploration sees both.
 */
static unsigned int pulses_seen;

static void short_pulse(void)
{
	pcf857x_pull(chip, BUTTON, true);
	pcf857x_pull(chip, BUTTON, false);
	up_sleep_ms(5);
	assert_true(btn.runs[BUTTON] == 0 || btn.runs[BUTTON] == 2, "%lu runs", btn.runs[BUTTON]);
	assert_false(pcf857x_int_asserted(chip));
	pulses_seen += btn.runs[BUTTON] == 2;
	/* The next press is not lost either way. */
	pcf857x_pull(chip, BUTTON, true);
	up_sleep_ms(5);
	assert_eq(btn.level[BUTTON], 0);
	pcf857x_pull(chip, BUTTON, false);
	up_sleep_ms(5);
}

UIRQ_TEST(pcf857x, a_short_pulse_is_both_edges_or_none, OPTS)
{
	uint64_t runs;

	pulses_seen = 0;
	runs = sim_runs_seeds(UP_SEEDS, 0, begin_button, short_pulse, end_button);
	printf("# the pulse was seen in %u of %llu seeds, gone before the thread's read in the others\n", pulses_seen,
	       (unsigned long long)runs);
	/* Both outcomes, when there is a spread to look at (UIRQ_SIM_SEED=N replays one seed). */
	if (runs > 1) {
		assert_gt(pulses_seen, 0u, "never seen");
		assert_lt(pulses_seen, (unsigned int)runs, "never lost");
	}
}

/*
 * A read of the port fails in the expander's thread (the handlers read
 * nothing themselves).  pcf857x_irq() takes the error code (-EIO:
 * ...fffb) for the port: line 2, which did not change, runs its handler;
 * the button, pressed, does not.  The failed read did not reach the chip,
 * so INT stays asserted while the port differs from its last read, and
 * the parent line is falling-edge, its edge taken: line 2 pressed
 * meanwhile interrupts nobody.  Both released, the port is back where the
 * chip last saw it and INT goes back with no interrupt: two presses and
 * two releases lost.  The next press interrupts again, and the driver,
 * comparing against the error code it kept, runs line 2's handler a
 * second time along with the button's.
 */
static void begin_two(unsigned int cpus)
{
	begin_button(cpus);
	btn.no_read = true;
	request_line(2, IRQF_TRIGGER_FALLING);
}

static void end_two(void)
{
	free_irq((unsigned int)gc->to_irq(gc, 2), (void *)(uintptr_t)2);
	end_button();
}

SIM_TEST_SEEDS(pcf857x, a_failed_read_is_taken_for_the_port, UP_SEEDS, begin_two, end_two, OPTS)
{
	assert_eq(uirq_i2c_sim_fail_nth(ub.sim, 1, -EIO), 0);
	pcf857x_pull(chip, BUTTON, true);
	up_sleep_ms(5);
	assert_eq(uirq_i2c_sim_faults_injected(ub.sim), 1ull);
	assert_eq(btn.runs[2], 1ul, "line 2 did not change, its handler ran");
	assert_eq(btn.runs[BUTTON], 0ul, "the press was not seen");
	assert_true(pcf857x_int_asserted(chip), "nothing read the chip");
	pcf857x_pull(chip, 2, true);
	up_sleep_ms(5);
	assert_eq(btn.runs[2], 1ul, "INT was low already: no edge, no interrupt");
	pcf857x_pull(chip, 2, false);
	pcf857x_pull(chip, BUTTON, false);
	up_sleep_ms(5);
	assert_false(pcf857x_int_asserted(chip), "the port is back where the chip last saw it");
	assert_eq(btn.runs[2] + btn.runs[BUTTON], 1ul, "nothing more ran");
	pcf857x_pull(chip, BUTTON, true);
	up_sleep_ms(5);
	assert_eq(btn.runs[BUTTON], 1ul, "the next press");
	assert_eq(btn.runs[2], 2ul, "and line 2 again, against the error code kept as its state");
	pcf857x_pull(chip, BUTTON, false);
	up_sleep_ms(5);
	assert_eq(btn.runs[BUTTON], 2ul);
	assert_eq(btn.runs[2], 2ul);
}

/* ---- the 16-line part: two bytes each way, low port first ---- */

static void begin16(unsigned int cpus)
{
	board(cpus, 16, "pcf8575", 0);
}

SIM_TEST_SEEDS(pcf857x, pcf8575_talks_in_words, UP_SEEDS, begin16, end, OPTS)
{
	assert_str_eq(bus, "r:ffff r:ffff");
	assert_eq(gc->ngpio, 16);
	bus[0] = '\0';
	assert_eq(gc->direction_output(gc, 9, 0), 0);
	assert_eq(pcf857x_latch(chip), 0xfdff);
	pcf857x_pull(chip, 14, true);
	up_sleep_ms(5);
	assert_eq(gc->get(gc, 14), 0);
	assert_eq(gc->get(gc, 1), 1);
	assert_str_eq(bus, "w:fffd r:ffbd r:ffbd r:ffbd");
	pcf857x_pull(chip, 14, false);
	up_sleep_ms(5);
}
