// SPDX-License-Identifier: MIT
/*
 * The kernel's drivers/input/keyboard/gpio_keys.c, unmodified, on two GPIO
 * providers, its buttons found from device-tree child nodes:
 *   - an in-memory gpio_chip written here, non-sleeping, each line's
 *     interrupt a swirq input: the driver debounces with an hrtimer (hard-irq
 *     context) and reads with gpiod_get_value(); and an interrupt-only
 *     button (no gpio, "interrupts-extended" only) released by an hrtimer
 *     after its debounce-interval;
 *   - the PCF8574 i2c expander (gpio-pcf857x.c on devices/pcf857x.c): the
 *     button's interrupt is nested in the expander's thread, its reads
 *     sleep, so the driver debounces with a delayed work item and reads with
 *     gpiod_get_value_cansleep() in it - a realistic board.
 * Every test runs over UP_SEEDS seeds of the deterministic mode; delays are
 * virtual, lockdep stays silent, the board comes down to nothing.
 */
#define _GNU_SOURCE
#include <linux/gpio/driver.h>
#include <linux/of_irq.h>
#include <linux/platform_device.h>

#include "board.h"
#include "pcf857x.h"

#define OPTS		.timeout = 300
#define GPIO_ACTIVE_LOW	1
#define ADDR		0x20
#define PCF_INT		3
#define IRQ_ONLY_INPUT	6

/* ---- the in-memory chip: four lines, each an input of the board's swirq controller ---- */

static struct memchip {
	struct gpio_chip gc;
	bool level[4];
	struct device_node *np;
} mem;

static int mem_get(struct gpio_chip *gc, unsigned int off)
{
	(void)gc;
	return __atomic_load_n(&mem.level[off], __ATOMIC_SEQ_CST);
}

static int mem_dir_in(struct gpio_chip *gc, unsigned int off)
{
	(void)gc, (void)off;
	return 0;
}

static int mem_get_dir(struct gpio_chip *gc, unsigned int off)
{
	(void)gc, (void)off;
	return GPIO_LINE_DIRECTION_IN;
}

static int mem_to_irq(struct gpio_chip *gc, unsigned int off)
{
	(void)gc;
	return uirq_swirq_map(ub.intc, off);
}

/* The line's level changes: what the chip reads, and an edge on its interrupt input. */
static void mem_set(unsigned int line, bool high)
{
	__atomic_store_n(&mem.level[line], high, __ATOMIC_SEQ_CST);
	assert_eq(uirq_swirq_set_level(ub.intc, line, high), 0);
}

/* The swirq controller as the device tree's interrupt parent: <input trigger>. */
static int intc_xlate(void *data, const u32 *args, int nargs)
{
	int irq = uirq_swirq_map(data, args[0]);

	if (irq > 0 && nargs > 1 && args[1])
		uirq_swirq_set_type(data, args[0], args[1]);
	return irq;
}

/* ---- the gpio-keys device ---- */

static struct {
	struct device_node *keys, *intc;
	struct platform_device *pdev;
	struct uirq_input_client *reader;
} kb;

/* A button node: line on provider (NULL: none) with flags, its code, its debounce-interval (0: the default 5). */
static struct device_node *button(const char *name, struct device_node *provider, u32 line, u32 flags, u32 code,
				  u32 debounce)
{
	struct device_node *np = uirq_of_node_new(kb.keys, name);
	u32 args[2] = { line, flags };

	assert_not_null(np);
	if (provider)
		assert_eq(uirq_of_node_add_phandle(np, "gpios", provider, args, 2), 0);
	assert_eq(uirq_of_node_add_u32s(np, "linux,code", &code, 1), 0);
	if (debounce)
		assert_eq(uirq_of_node_add_u32s(np, "debounce-interval", &debounce, 1), 0);
	return np;
}

static void keys_node(void)
{
	kb.keys = uirq_of_node_new(NULL, "gpio-keys");
	assert_eq(uirq_of_node_add_string(kb.keys, "compatible", "gpio-keys"), 0);
}

/* The device appears, gpio-keys binds, a reader opens its input device. */
static void keys_probe(void)
{
	struct input_dev *in;

	kb.pdev = platform_device_alloc("gpio-keys", -1);
	assert_not_null(kb.pdev);
	kb.pdev->dev.of_node = kb.keys;
	assert_eq(platform_device_add(kb.pdev), 0);
	assert_not_null(kb.pdev->dev.driver, "gpio-keys did not bind:\n%s", up_log);
	in = uirq_compat_input_find(&kb.pdev->dev);
	assert_not_null(in);
	assert_eq(uirq_input_open(uirq_compat_input_dev(in), &kb.reader), 0);
}

static void keys_remove(void)
{
	if (kb.reader)
		uirq_input_close(kb.reader);
	kb.reader = NULL;
	if (kb.pdev)
		platform_device_unregister(kb.pdev);
	uirq_of_node_free(kb.keys);
}

/* ---- board (b): the in-memory chip ---- */

static void mem_board(unsigned int cpus)
{
	u32 two = 2;

	up_begin(cpus);
	memset(&mem, 0, sizeof(mem));
	memset(&kb, 0, sizeof(kb));
	mem.np = uirq_of_node_new(NULL, "gpio-mem");
	assert_eq(uirq_of_node_add_u32s(mem.np, "#gpio-cells", &two, 1), 0);
	kb.intc = uirq_of_node_new(NULL, "intc");
	assert_eq(uirq_of_node_add_u32s(kb.intc, "#interrupt-cells", &two, 1), 0);
	uirq_of_node_set_irq_xlate(kb.intc, intc_xlate, ub.intc);
	mem.gc = (struct gpio_chip){ .label = "gpio-mem", .ngpio = 4, .base = -1, .get = mem_get,
				     .direction_input = mem_dir_in, .get_direction = mem_get_dir,
				     .to_irq = mem_to_irq, .fwnode = of_fwnode_handle(mem.np) };
	assert_eq(gpiochip_add_data(&mem.gc, &mem), 0);
	assert_eq(uirq_compat_modules_init(), 0);
	keys_node();
}

static void mem_end(void)
{
	keys_remove();
	uirq_compat_modules_exit();
	gpiochip_remove(&mem.gc);
	uirq_of_node_free(mem.np);
	uirq_of_node_free(kb.intc);
	assert_eq(uirq_swirq_destroy(ub.intc), 0);
	assert_eq(uirq_compat_i2c_adapter_del(ub.adap), 0);
	assert_eq(uirq_i2c_sim_free(ub.sim), 0);
	uirq_cpus_stop();
	uirq_log_set_sink(NULL, NULL);
	assert_no_reports();
}

static void begin_power(unsigned int cpus)
{
	mem_board(cpus);
	button("power", mem.np, 0, 0, KEY_POWER, 0);
	keys_probe();
}

/* A press and a release, each held past the debounce: KEY_POWER 1, then 0, once each. */
SIM_TEST_SEEDS(gpio_keys, press_and_release_once_each, UP_SEEDS, begin_power, mem_end, OPTS)
{
	EXPECT_NOTHING(kb.reader);
	mem_set(0, true);
	up_sleep_ms(4);
	EXPECT_NOTHING(kb.reader);	/* the 5 ms debounce has not run out */
	up_sleep_ms(2);
	EXPECT(kb.reader, KEY(KEY_POWER, 1), SYN);
	mem_set(0, false);
	up_sleep_ms(10);
	EXPECT(kb.reader, KEY(KEY_POWER, 0), SYN);
	up_sleep_ms(20);
	EXPECT_NOTHING(kb.reader);
}

/* Bounces closer than debounce-interval: one press, read once the line has stayed still. */
SIM_TEST_SEEDS(gpio_keys, bounce_within_debounce_is_one_press, UP_SEEDS, begin_power, mem_end, OPTS)
{
	for (int i = 0; i < 4; i++) {
		mem_set(0, true);
		up_sleep_ms(1);
		mem_set(0, false);
		up_sleep_ms(1);
	}
	mem_set(0, true);
	up_sleep_ms(20);
	EXPECT(kb.reader, KEY(KEY_POWER, 1), SYN);
	mem_set(0, false);
	up_sleep_ms(20);
	EXPECT(kb.reader, KEY(KEY_POWER, 0), SYN);
}

/* Two keys, each with its own linux,code; one active low (pressed while its line is low). */
static void begin_two(unsigned int cpus)
{
	mem_board(cpus);
	mem_set(1, true);	/* the active-low key's line idles high */
	button("vol-up", mem.np, 1, GPIO_ACTIVE_LOW, KEY_VOLUMEUP, 10);
	button("vol-down", mem.np, 2, 0, KEY_VOLUMEDOWN, 0);
	keys_probe();
}

SIM_TEST_SEEDS(gpio_keys, two_keys_one_active_low, UP_SEEDS, begin_two, mem_end, OPTS)
{
	EXPECT_NOTHING(kb.reader);
	mem_set(1, false);
	up_sleep_ms(20);
	EXPECT(kb.reader, KEY(KEY_VOLUMEUP, 1), SYN);
	mem_set(2, true);
	up_sleep_ms(20);
	EXPECT(kb.reader, KEY(KEY_VOLUMEDOWN, 1), SYN);
	mem_set(1, true);
	mem_set(2, false);
	up_sleep_ms(20);
	/* Their debounces end 5 ms apart (10 and 5 ms): vol-down's release first. */
	EXPECT(kb.reader, KEY(KEY_VOLUMEDOWN, 0), SYN, KEY(KEY_VOLUMEUP, 0), SYN);
}

/* An interrupt-only button: a press at the interrupt, its release debounce-interval later by the hrtimer. */
static void begin_irq_only(unsigned int cpus)
{
	struct device_node *np;
	u32 spec[2] = { IRQ_ONLY_INPUT, IRQ_TYPE_EDGE_RISING };

	mem_board(cpus);
	np = button("lid", NULL, 0, 0, KEY_WAKEUP, 0);
	assert_eq(uirq_of_node_add_phandle(np, "interrupts-extended", kb.intc, spec, 2), 0);
	keys_probe();
}

SIM_TEST_SEEDS(gpio_keys, interrupt_only_key_releases_itself, UP_SEEDS, begin_irq_only, mem_end, OPTS)
{
	assert_eq(uirq_swirq_set_level(ub.intc, IRQ_ONLY_INPUT, true), 0);
	up_sleep_ms(1);
	assert_eq(uirq_swirq_set_level(ub.intc, IRQ_ONLY_INPUT, false), 0);
	EXPECT(kb.reader, KEY(KEY_WAKEUP, 1), SYN);
	up_sleep_ms(3);
	EXPECT_NOTHING(kb.reader);
	up_sleep_ms(2);
	EXPECT(kb.reader, KEY(KEY_WAKEUP, 0), SYN);
	/* A second interrupt within the delay pushes the release out: no second press. */
	assert_eq(uirq_swirq_set_level(ub.intc, IRQ_ONLY_INPUT, true), 0);
	assert_eq(uirq_swirq_set_level(ub.intc, IRQ_ONLY_INPUT, false), 0);
	up_sleep_ms(3);
	assert_eq(uirq_swirq_set_level(ub.intc, IRQ_ONLY_INPUT, true), 0);
	assert_eq(uirq_swirq_set_level(ub.intc, IRQ_ONLY_INPUT, false), 0);
	up_sleep_ms(4);
	EXPECT(kb.reader, KEY(KEY_WAKEUP, 1), SYN);
	up_sleep_ms(2);
	EXPECT(kb.reader, KEY(KEY_WAKEUP, 0), SYN);
}

/* ---- board (a): the PCF8574 behind i2c ---- */

static struct pcf857x *pcf;

static void destroy_pcf(void)
{
	pcf857x_destroy(pcf);
}

static void pcf_board(unsigned int cpus)
{
	struct i2c_board_info info = { .addr = ADDR, .type = "pcf8574" };
	u32 two = 2;

	up_begin(cpus);
	memset(&kb, 0, sizeof(kb));
	info.irq = (int)up_line(PCF_INT, UIRQ_TYPE_EDGE_FALLING);
	assert_eq(pcf857x_create(ub.sim, ADDR, 8, ub.intc, PCF_INT, &pcf), 0);
	info.of_node = up_node("gpio@20", "nxp,pcf8574", ADDR);
	assert_eq(uirq_of_node_add_u32s(ub.np, "#gpio-cells", &two, 1), 0);
	assert_eq(uirq_of_node_add_bool(ub.np, "gpio-controller"), 0);
	up_probe(&info);
	keys_node();
	/* The button pulls expander pin 4 to ground: active low. */
	button("power", ub.np, 4, GPIO_ACTIVE_LOW, KEY_POWER, 0);
	keys_probe();
}

static void pcf_end(void)
{
	keys_remove();
	up_end(destroy_pcf);
}

/* Keys behind an i2c expander: a nested interrupt, the read in a work item over the bus; each edge once. */
SIM_TEST_SEEDS(gpio_keys, expander_press_and_release_once_each, UP_SEEDS, pcf_board, pcf_end, OPTS)
{
	EXPECT_NOTHING(kb.reader);
	pcf857x_pull(pcf, 4, true);
	up_sleep_ms(20);
	EXPECT(kb.reader, KEY(KEY_POWER, 1), SYN);
	pcf857x_pull(pcf, 4, false);
	up_sleep_ms(20);
	EXPECT(kb.reader, KEY(KEY_POWER, 0), SYN);
}

/*
 * Removed with a debounce work pending: remove's quiesce action cancels it
 * (cancel_delayed_work_sync()), so it never runs on the freed state (ASan
 * watches) and nothing is reported after.
 */
SIM_TEST_SEEDS(gpio_keys, remove_with_a_debounce_pending, UP_SEEDS, pcf_board, pcf_end, OPTS)
{
	pcf857x_pull(pcf, 4, true);
	/* The expander's thread reads the port and queues the work with its 5 ms delay. */
	up_sleep_ms(2);
	EXPECT_NOTHING(kb.reader);
	uirq_input_close(kb.reader);
	kb.reader = NULL;
	platform_device_unregister(kb.pdev);
	kb.pdev = NULL;
	up_sleep_ms(20);
	pcf857x_pull(pcf, 4, false);
	up_sleep_ms(5);
	/* keys_remove() of the end: the node only. */
	uirq_of_node_free(kb.keys);
	kb.keys = NULL;
}
