// SPDX-License-Identifier: MIT
/*
 * The i2c core: adapters and clients, argument checks, might_sleep() naming
 * the caller's line, the bus mutex serializing transfers, and deleting an
 * adapter that still has clients.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "io_reports.h"
#include "uirq/context.h"
#include "uirq/i2c.h"

#define OPTS .timeout = 20, .init = io_reports_start

/* ---- an adapter with a counting algorithm, independent of the simulator ---- */

static int xfers;

static int count_xfer(struct uirq_i2c_adapter *adap, struct uirq_i2c_msg *msgs, int num)
{
	(void)adap;
	(void)msgs;
	xfers++;
	return num;
}

static const struct uirq_i2c_algorithm count_algo = { .master_xfer = count_xfer };

UIRQ_TEST(i2c_core, adapters_and_clients, OPTS)
{
	struct uirq_i2c_adapter a = { .name = "a", .algo = &count_algo };
	struct uirq_i2c_adapter b = { .name = "b", .algo = &count_algo };
	struct uirq_i2c_adapter none = { .name = "none" };
	struct uirq_i2c_client *c1, *c2, *bad;

	assert_eq(uirq_i2c_add_adapter(&none), -EINVAL, "an adapter needs an algorithm");
	assert_eq(uirq_i2c_add_adapter(&a), 0);
	assert_eq(uirq_i2c_add_adapter(&a), -EBUSY);
	assert_eq(uirq_i2c_add_adapter(&b), 0);
	assert_ne(a.nr, b.nr);
	assert_eq(a.timeout_ms, 1000, "the kernel's default timeout, HZ");
	assert_eq(uirq_i2c_get_functionality(&a), 0);

	assert_eq(uirq_i2c_new_client_device(&a, "pmic", 0x48, &c1), 0);
	assert_eq(c1->adapter, &a);
	assert_eq(c1->addr, 0x48);
	assert_str_eq(c1->name, "pmic");
	assert_eq(uirq_i2c_new_client_device(&a, "again", 0x48, &bad), -EBUSY);
	assert_null(bad);
	assert_eq(uirq_i2c_new_client_device(&b, "same-addr-other-bus", 0x48, &c2), 0);
	assert_eq(uirq_i2c_new_client_device(&a, "zero", 0x00, &bad), -EINVAL);
	assert_null(bad);
	assert_eq(uirq_i2c_new_client_device(&a, "wide", 0x80, &bad), -EINVAL);
	assert_null(bad);
	assert_eq(uirq_i2c_new_client_device(&a, "a-name-longer-than-twenty", 0x10, &bad), -EINVAL);
	assert_null(bad);
	assert_eq(uirq_i2c_new_client_device(&none, "unadded", 0x10, &bad), -ENODEV);
	assert_null(bad);
	struct uirq_i2c_client *ten;

	assert_eq(uirq_i2c_new_client_device_flags(&a, "ten", 0x248, UIRQ_I2C_CLIENT_TEN, &ten), 0);
	uirq_i2c_unregister_device(ten);
	uirq_i2c_unregister_device(NULL);

	/* Deleting with clients is refused; nothing is freed behind the driver. */
	assert_eq(uirq_i2c_del_adapter(&a), -EBUSY);
	assert_eq(uirq_i2c_master_send(c1, (const uint8_t *)"\x01\x02", 2), 2, "still works");
	uirq_i2c_unregister_device(c1);
	assert_eq(uirq_i2c_del_adapter(&a), 0);
	assert_eq(uirq_i2c_del_adapter(&a), -ENODEV);
	uirq_i2c_unregister_device(c2);
	assert_eq(uirq_i2c_del_adapter(&b), 0);
	assert_no_reports();
}

UIRQ_TEST(i2c_core, transfer_arguments, OPTS)
{
	struct uirq_i2c_adapter a = { .name = "a", .algo = &count_algo };
	struct uirq_i2c_adapter noxfer_adap = { .name = "noxfer" };
	static const struct uirq_i2c_algorithm noxfer = { .master_xfer = NULL };
	uint8_t b[2];
	struct uirq_i2c_msg m[2] = { { 0x10, 0, 1, b }, { 0x10, UIRQ_I2C_M_RD, 1, b + 1 } };
	struct uirq_i2c_msg nobuf = { 0x10, 0, 1, NULL };
	struct uirq_i2c_stats st;

	assert_eq(uirq_i2c_add_adapter(&a), 0);
	assert_eq(uirq_i2c_transfer(&a, m, 2), 2);
	assert_eq(uirq_i2c_transfer(&a, m, 0), -EINVAL);
	assert_eq(uirq_i2c_transfer(&a, NULL, 1), -EINVAL);
	assert_eq(uirq_i2c_transfer(NULL, m, 1), -EINVAL);
	assert_eq(uirq_i2c_transfer(&a, &nobuf, 1), -EINVAL);
	noxfer_adap.algo = &noxfer;
	assert_eq(uirq_i2c_add_adapter(&noxfer_adap), 0);
	assert_eq(uirq_i2c_transfer(&noxfer_adap, m, 1), -EOPNOTSUPP);
	assert_eq(xfers, 1, "refused transfers never reach the algorithm");
	uirq_i2c_get_stats(&a, &st);
	assert_eq(st.transfers, 1);
	assert_eq(st.messages, 2);
	assert_eq(st.bytes, 2);
	uirq_i2c_reset_stats(&a);
	uirq_i2c_get_stats(&a, &st);
	assert_eq(st.transfers, 0);
	assert_eq(uirq_i2c_del_adapter(&a), 0);
	assert_eq(uirq_i2c_transfer(&a, m, 2), -ENODEV, "a deleted adapter");
	assert_eq(uirq_i2c_del_adapter(&noxfer_adap), 0);
	assert_no_reports();
}

static int traced, traced_ret;

static void trace(const struct uirq_i2c_trace *t, void *arg)
{
	(void)arg;
	traced++;
	traced_ret = t->ret;
	assert_le(t->start_ns, t->end_ns);
	assert_eq(t->num, 2);
	assert_gt(t->wire_ns, 0);
}

UIRQ_TEST(i2c_core, trace_hook, OPTS)
{
	struct uirq_i2c_sim *sim;
	struct uirq_i2c_adapter *adap;
	struct uirq_i2c_client *c;

	assert_eq(uirq_i2c_sim_new("t", 2600000, &sim), 0);
	adap = uirq_i2c_sim_adapter(sim);
	assert_eq(uirq_i2c_new_client_device(adap, "x", 0x33, &c), 0);

	uirq_i2c_set_trace(adap, trace, NULL);
	assert_eq(uirq_i2c_smbus_read_byte_data(c, 1), -ENXIO);
	assert_eq(traced, 1);
	assert_eq(traced_ret, -ENXIO);
	uirq_i2c_set_trace(adap, NULL, NULL);
	uirq_i2c_smbus_read_byte_data(c, 1);
	assert_eq(traced, 1);
	uirq_i2c_unregister_device(c);
	assert_eq(uirq_i2c_sim_free(sim), 0);
	assert_no_reports();
}

/* ---- might_sleep(): the report names the caller's file and line ---- */

static uint8_t regs[256];

static int rd(void *priv, uint8_t r, uint8_t *v)
{
	(void)priv;
	*v = regs[r];
	return 0;
}

static int wr(void *priv, uint8_t r, uint8_t v)
{
	(void)priv;
	regs[r] = v;
	return 0;
}

static const struct uirq_i2c_sim_device_ops ops = { .read = rd, .write = wr };

static struct uirq_i2c_sim *sim;
static struct uirq_i2c_client *cl;

static void sim_setup(void)
{
	io_reports_start();
	assert_eq(uirq_i2c_sim_new("ms", 2600000, &sim), 0);
	assert_eq(uirq_i2c_sim_attach(sim, 0x4b, &ops, NULL), 0);
	assert_eq(uirq_i2c_new_client_device(uirq_i2c_sim_adapter(sim), "pwrbutton", 0x4b, &cl), 0);
}

static void sim_teardown(void)
{
	uirq_i2c_unregister_device(cl);
	assert_eq(uirq_i2c_sim_free(sim), 0);
}

/* Without lockdep compiled in, might_sleep() still prints, but to stderr only. */
#define REPORTS_RECORDED UIRQ_CONFIG_LOCKDEP

static void expect_sleep_report(int line)
{
	char at[256];

	if (!REPORTS_RECORDED)
		return;

	snprintf(at, sizeof(at), "BUG: sleeping function called from invalid context at %s:%d",
		 __FILE__, line);
	assert_ge(io_rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], 1, "no might_sleep report");
	assert_str_eq(io_rec.headlines[0], at);
	assert_true(strstr(io_rec.text, at), "report text:\n%.2000s", io_rec.text);
}

UIRQ_TEST(i2c_core, transfer_with_irqs_disabled_is_reported, .timeout = 20, .init = sim_setup)
{
	uint8_t r = 0x45, v;
	struct uirq_i2c_msg m[2] = { { 0x4b, 0, 1, &r }, { 0x4b, UIRQ_I2C_M_RD, 1, &v } };
	unsigned long flags = uirq_local_irq_save();
	int line = __LINE__ + 1;
	int ret = uirq_i2c_transfer(uirq_i2c_sim_adapter(sim), m, 2);

	uirq_local_irq_restore(flags);
	assert_eq(ret, 2, "the report does not stop the transfer");
	expect_sleep_report(line);
	if (!REPORTS_RECORDED) {
		sim_teardown();
		return;
	}
	assert_true(strstr(io_rec.text, "irqs_disabled(): 1"));
	assert_eq(io_rec.n, io_rec.by_kind[UIRQ_REPORT_SLEEP_INVALID], "other reports:\n%.3000s", io_rec.text);
	sim_teardown();
}

UIRQ_TEST(i2c_core, smbus_in_hardirq_is_reported, .timeout = 20, .init = sim_setup)
{
	int line, ret;

	uirq_local_irq_disable();
	uirq_hardirq_enter();
	line = __LINE__ + 1;
	ret = uirq_i2c_smbus_read_byte_data(cl, 0x45);
	uirq_hardirq_exit();
	uirq_local_irq_enable();
	assert_ge(ret, 0);
	expect_sleep_report(line);
	if (!REPORTS_RECORDED) {
		sim_teardown();
		return;
	}
	assert_true(strstr(io_rec.text, "in_atomic(): 1"));
	/*
	 * lockdep adds its own verdict: the bus mutex, taken with irqs on at
	 * attach, is now taken in hard-irq context.  Nothing else.
	 */
	if (uirq_lockdep_enabled()) {
		assert_eq(io_rec.by_kind[UIRQ_REPORT_INCONSISTENT], 1);
		assert_true(strstr(io_rec.text, "inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} usage."));
		assert_true(strstr(io_rec.text, "(&adap->bus_lock)"));
	}
	assert_eq(io_rec.n, io_rec.by_kind[UIRQ_REPORT_SLEEP_INVALID] +
		     io_rec.by_kind[UIRQ_REPORT_INCONSISTENT], "other reports:\n%.3000s", io_rec.text);
	sim_teardown();
}

static void *thread_read(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)uirq_i2c_smbus_read_byte_data(cl, 0x45);
}

UIRQ_TEST(i2c_core, transfer_from_a_thread_is_clean, .timeout = 20, .init = sim_setup)
{
	pthread_t t;
	void *ret;

	regs[0x45] = 0x5a;
	assert_eq(pthread_create(&t, NULL, thread_read, NULL), 0);
	assert_eq(pthread_join(t, &ret), 0);
	assert_eq((intptr_t)ret, 0x5a);
	assert_eq(uirq_i2c_smbus_write_byte_data(cl, 0x10, 1), 0);
	sim_teardown();
	assert_no_reports();
}

/* ---- the bus mutex: four threads, one transfer on the wire at a time ---- */

#define THREADS	4
#define PER_THREAD 25

static int inside, overlap;

static int excl_rd(void *priv, uint8_t r, uint8_t *v)
{
	(void)priv;
	if (__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST) != 1)
		__atomic_store_n(&overlap, 1, __ATOMIC_SEQ_CST);
	*v = r;
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static const struct uirq_i2c_sim_device_ops excl_ops = { .read = excl_rd, .write = wr };

static void *hammer(void *arg)
{
	struct uirq_i2c_client *c = arg;
	intptr_t bad = 0;

	for (int i = 0; i < PER_THREAD; i++)
		if (uirq_i2c_smbus_read_i2c_block_data(c, 0x10, 2, (uint8_t[2]){ 0 }) != 2)
			bad++;
	return (void *)bad;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

UIRQ_TEST(i2c_core, bus_mutex_serializes_threads, .timeout = 30, .init = io_reports_start)
{
	struct uirq_i2c_sim *s;
	struct uirq_i2c_adapter *adap;
	struct uirq_i2c_client *c[THREADS];
	pthread_t t[THREADS];
	uint8_t reg = 0x10, buf[2];
	struct uirq_i2c_msg shape[2] = { { 0x20, 0, 1, &reg }, { 0x20, UIRQ_I2C_M_RD, 2, buf } };
	uint64_t wire = uirq_i2c_wire_ns(shape, 2, 400000), t0, took;
	struct uirq_i2c_stats st;

	assert_eq(uirq_i2c_sim_new("busy", 400000, &s), 0);
	adap = uirq_i2c_sim_adapter(s);
	assert_eq(uirq_i2c_sim_attach(s, 0x20, &excl_ops, NULL), 0);
	for (int i = 0; i < THREADS; i++) {
		char name[16];

		snprintf(name, sizeof(name), "dev%d", i);
		/* One slave, four clients would collide: give each thread its own slave. */
		if (i)
			assert_eq(uirq_i2c_sim_attach(s, (uint16_t)(0x20 + i), &excl_ops, NULL), 0);
		assert_eq(uirq_i2c_new_client_device(adap, name, (uint16_t)(0x20 + i), &c[i]), 0);
	}
	t0 = now_ns();
	for (int i = 0; i < THREADS; i++)
		assert_eq(pthread_create(&t[i], NULL, hammer, c[i]), 0);
	for (int i = 0; i < THREADS; i++) {
		void *bad;

		assert_eq(pthread_join(t[i], &bad), 0);
		assert_eq((intptr_t)bad, 0);
	}
	took = now_ns() - t0;
	assert_eq(__atomic_load_n(&overlap, __ATOMIC_SEQ_CST), 0, "two transfers on the wire at once");
	/* Serialized sleeps: the whole run lasts at least the sum of the wire times. */
	assert_ge(took, (uint64_t)THREADS * PER_THREAD * wire);
	uirq_i2c_get_stats(adap, &st);
	assert_eq(st.transfers, THREADS * PER_THREAD);
	assert_eq(st.messages, 2 * THREADS * PER_THREAD);
	assert_eq(st.bytes, 3 * THREADS * PER_THREAD);
	assert_eq(st.errors, 0);
	assert_eq(st.wire_ns, (uint64_t)THREADS * PER_THREAD * wire);
	assert_eq(uirq_i2c_sim_free(s), -EBUSY, "clients still registered");
	for (int i = 0; i < THREADS; i++)
		uirq_i2c_unregister_device(c[i]);
	assert_eq(uirq_i2c_sim_free(s), 0);
	assert_no_reports();
}

/* The i2c-dev node a bus name stands for, so that a message can name the file tried. */
UIRQ_TEST(i2c_core, dev_paths_name_the_node, OPTS)
{
	static const char *const names[][2] = {
		{ "5", "/dev/i2c-5" }, { "i2c-7", "/dev/i2c-7" }, { "/dev/i2c-9", "/dev/i2c-9" },
	};
	char path[64];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_eq(uirq_i2c_dev_path(names[i][0], path, sizeof(path)), 0, "%s", names[i][0]);
		assert_str_eq(path, names[i][1]);
	}
	/* Any other word is an adapter's name, looked up in sysfs: nobody's adapter is called this. */
	assert_eq(uirq_i2c_dev_path("uirq test: no such adapter", path, sizeof(path)), -ENOENT);
	assert_eq(uirq_i2c_dev_path("", path, sizeof(path)), -EINVAL);
	assert_eq(uirq_i2c_dev_path(NULL, path, sizeof(path)), -EINVAL);
}
