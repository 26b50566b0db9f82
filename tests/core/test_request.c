// SPDX-License-Identifier: MIT
/* request/free, their error paths and messages, disable depth, bus lock. */
#include <errno.h>
#include <string.h>

#include "harness.h"
#include "testchip.h"

static atomic_int primary_calls;

static uirq_irqreturn_t primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_fetch_add(&primary_calls, 1);
	return UIRQ_IRQ_HANDLED;
}

static uirq_irqreturn_t thread_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return UIRQ_IRQ_HANDLED;
}

static int dev_a, dev_b, dev_c;

UIRQ_TEST(core_request, invalid_irq_is_einval, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	assert_eq(uirq_request_irq(60000, primary, 0, "x", &dev_a), -EINVAL);
	assert_eq(uirq_request_irq(0, primary, 0, "x", &dev_a), -EINVAL);
	assert_eq(uirq_request_any_context_irq(60000, primary, 0, "x", &dev_a), -EINVAL);
	assert_null(uirq_free_irq(60000, &dev_a));
	tc_teardown();
}

/* A line wired to nothing is -ENOTCONN, whatever the flags, as the kernel's IRQ_NOTCONNECTED. */
UIRQ_TEST(core_request, not_connected_is_enotconn, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	assert_eq(uirq_request_irq(UIRQ_IRQ_NOTCONNECTED, primary, 0, "x", &dev_a), -ENOTCONN);
	assert_eq(uirq_request_threaded_irq(UIRQ_IRQ_NOTCONNECTED, NULL, primary, UIRQF_ONESHOT, "x", &dev_a),
		  -ENOTCONN);
	assert_eq(uirq_request_threaded_irq(UIRQ_IRQ_NOTCONNECTED, primary, NULL, UIRQF_SHARED, "x", NULL),
		  -ENOTCONN, "checked before the flags");
	assert_eq(uirq_request_any_context_irq(UIRQ_IRQ_NOTCONNECTED, primary, 0, "x", &dev_a), -ENOTCONN);
	tc_teardown();
}

UIRQ_TEST(core_request, flag_errors, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(0);

	assert_eq(uirq_request_threaded_irq(irq, NULL, NULL, 0, "x", &dev_a), -EINVAL);
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED, "x", NULL), -EINVAL);
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED | UIRQF_NO_AUTOEN, "x", &dev_a), -EINVAL);
	/* Nothing was installed by the refusals. */
	assert_eq(uirq_irq_get_depth(irq), 1u);
	tc_teardown();
}

UIRQ_TEST(core_request, noreqest_line_is_einval, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(1);

	uirq_irq_modify_status(irq, 0, UIRQ_NOREQUEST);
	assert_eq(uirq_request_irq(irq, primary, 0, "x", &dev_a), -EINVAL);
	uirq_irq_modify_status(irq, UIRQ_NOREQUEST, 0);
	assert_eq(uirq_request_irq(irq, primary, 0, "x", &dev_a), 0);
	assert_str_eq(uirq_free_irq(irq, &dev_a), "x");
	tc_teardown();
}

UIRQ_TEST(core_request, no_chip_is_enosys, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	int irq = uirq_irq_alloc_descs(-1, 1, 1);

	assert_gt(irq, 0);
	assert_eq(uirq_request_irq((unsigned int)irq, primary, 0, "x", &dev_a), -ENOSYS);
	uirq_irq_free_descs((unsigned int)irq, 1);
	tc_teardown();
}

UIRQ_TEST(core_request, handler_null_needs_oneshot, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(2);

	tc_capture_begin();
	int ret = uirq_request_threaded_irq(irq, NULL, thread_fn, 0, "nullh", &dev_a);
	const char *out = tc_capture_end();

	assert_eq(ret, -EINVAL);
	assert_true(strstr(out, "Threaded irq requested with handler=NULL and !ONESHOT for nullh"), "%s", out);
	assert_eq(uirq_request_threaded_irq(irq, NULL, thread_fn, UIRQF_ONESHOT, "nullh", &dev_a), 0);
	uirq_free_irq(irq, &dev_a);
	/* A oneshot-safe chip needs no ONESHOT. */
	tc.chip.flags |= UIRQCHIP_ONESHOT_SAFE;
	assert_eq(uirq_request_threaded_irq(irq, NULL, thread_fn, 0, "nullh", &dev_a), 0);
	uirq_free_irq(irq, &dev_a);
	tc.chip.flags &= ~UIRQCHIP_ONESHOT_SAFE;
	tc_teardown();
}

UIRQ_TEST(core_request, sharing_rules, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(3);

	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED | UIRQF_TRIGGER_HIGH, "a", &dev_a), 0);
	/* Not shared by the newcomer. */
	tc_capture_begin();
	int ret = uirq_request_irq(irq, primary, UIRQF_TRIGGER_HIGH, "b", &dev_b);
	const char *out = tc_capture_end();

	assert_eq(ret, -EBUSY);
	assert_true(strstr(out, "genirq: Flags mismatch irq"), "%s", out);
	assert_true(strstr(out, ". 00000004 (b) vs. 00000084 (a)"), "%s", out);
	/* Trigger mismatch. */
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED | UIRQF_TRIGGER_RISING, "b", &dev_b), -EBUSY);
	/* ONESHOT mismatch. */
	assert_eq(uirq_request_threaded_irq(irq, NULL, thread_fn, UIRQF_SHARED | UIRQF_TRIGGER_HIGH | UIRQF_ONESHOT,
					       "b", &dev_b), -EBUSY);
	/* PROBE_SHARED: refused without the message. */
	tc_capture_begin();
	ret = uirq_request_irq(irq, primary, UIRQF_PROBE_SHARED | UIRQF_TRIGGER_HIGH, "b", &dev_b);
	out = tc_capture_end();
	assert_eq(ret, -EBUSY);
	assert_null(strstr(out, "Flags mismatch"));
	/* Matching: fine. */
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED | UIRQF_TRIGGER_HIGH, "b", &dev_b), 0);
	assert_str_eq(uirq_free_irq(irq, &dev_b), "b");
	assert_str_eq(uirq_free_irq(irq, &dev_a), "a");
	tc_teardown();
}

UIRQ_TEST(core_request, cond_oneshot_adopts, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(4);

	assert_eq(uirq_request_threaded_irq(irq, NULL, thread_fn, UIRQF_SHARED | UIRQF_ONESHOT, "a", &dev_a), 0);
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED, "b", &dev_b), -EBUSY);
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED | UIRQF_COND_ONESHOT, "b", &dev_b), 0);
	uirq_free_irq(irq, &dev_b);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

UIRQ_TEST(core_request, free_unknown_dev_id_warns, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(5);
	char want[64];

	snprintf(want, sizeof(want), "Trying to free already-free IRQ %u", irq);
	tc_capture_begin();
	const char *name = uirq_free_irq(irq, &dev_a);
	const char *out = tc_capture_end();

	assert_null(name);
	assert_true(strstr(out, want), "%s", out);
	assert_eq(uirq_request_irq(irq, primary, 0, "a", &dev_a), 0);
	tc_capture_begin();
	name = uirq_free_irq(irq, &dev_b);
	out = tc_capture_end();
	assert_null(name);
	assert_true(strstr(out, want), "%s", out);
	assert_str_eq(uirq_free_irq(irq, &dev_a), "a");
	tc_teardown();
}

UIRQ_TEST(core_request, request_any_context, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int hard = tc_irq(6), nested = tc_irq(7);

	uirq_irq_set_nested_thread(nested, true);
	assert_eq(uirq_request_any_context_irq(hard, primary, 0, "hard", &dev_a), UIRQC_IS_HARDIRQ);
	/* Nested: handler NULL and no ONESHOT is fine, the thread_fn runs in the parent's thread. */
	assert_eq(uirq_request_any_context_irq(nested, thread_fn, 0, "nested", &dev_b), UIRQC_IS_NESTED);
	/* A nested line needs a thread function. */
	assert_eq(uirq_request_irq(nested, primary, UIRQF_SHARED, "x", &dev_c), -EINVAL);
	assert_eq(uirq_request_any_context_irq(hard, primary, 0, "again", &dev_c), -EBUSY);
	uirq_free_irq(hard, &dev_a);
	uirq_free_irq(nested, &dev_b);
	tc_teardown();
}

UIRQ_TEST(core_request, disable_depth_and_unbalanced_enable, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(8);
	char want[64];

	assert_eq(uirq_request_irq(irq, primary, 0, "d", &dev_a), 0);
	assert_eq(uirq_irq_get_depth(irq), 0u);
	assert_true(uirq_irq_is_enabled(irq));
	uirq_disable_irq(irq);
	uirq_disable_irq_nosync(irq);
	assert_true(uirq_disable_hardirq(irq));
	assert_eq(uirq_irq_get_depth(irq), 3u);
	assert_false(uirq_irq_is_enabled(irq));
	uirq_enable_irq(irq);
	uirq_enable_irq(irq);
	assert_eq(uirq_irq_get_depth(irq), 1u);
	assert_false(uirq_irq_is_enabled(irq));
	uirq_enable_irq(irq);
	assert_eq(uirq_irq_get_depth(irq), 0u);
	assert_true(uirq_irq_is_enabled(irq));

	snprintf(want, sizeof(want), "Unbalanced enable for IRQ %u", irq);
	tc_capture_begin();
	uirq_enable_irq(irq);
	const char *out = tc_capture_end();

	assert_true(strstr(out, want), "%s", out);
	assert_eq(uirq_irq_get_depth(irq), 0u);
	assert_true(uirq_irq_is_enabled(irq));
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

UIRQ_TEST(core_request, free_while_disabled_then_request_resets_depth, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(9);

	assert_eq(uirq_request_irq(irq, primary, 0, "d", &dev_a), 0);
	uirq_disable_irq(irq);
	assert_eq(uirq_irq_get_depth(irq), 1u);
	uirq_free_irq(irq, &dev_a);
	assert_eq(uirq_irq_get_depth(irq), 1u, "free_irq leaves the depth");
	assert_false(uirq_irq_is_enabled(irq));
	assert_eq(uirq_request_irq(irq, primary, 0, "d", &dev_a), 0);
	assert_eq(uirq_irq_get_depth(irq), 0u, "a new request starts the line at depth 0");
	assert_true(uirq_irq_is_enabled(irq));
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

UIRQ_TEST(core_request, no_autoen_starts_disabled, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(10);

	assert_eq(uirq_request_irq(irq, primary, UIRQF_NO_AUTOEN, "n", &dev_a), 0);
	assert_eq(uirq_irq_get_depth(irq), 1u);
	assert_false(uirq_irq_is_enabled(irq));
	assert_eq(tc_line_of(irq)->startup + tc_line_of(irq)->unmask, 0);
	uirq_enable_irq(irq);
	assert_true(uirq_irq_is_enabled(irq));
	assert_eq(atomic_load(&tc_line_of(irq)->unmask), 1);
	uirq_free_irq(irq, &dev_a);
	/* The line-level setting does the same. */
	uirq_irq_modify_status(irq, 0, UIRQ_NOAUTOEN);
	assert_eq(uirq_request_irq(irq, primary, 0, "n", &dev_a), 0);
	assert_eq(uirq_irq_get_depth(irq), 1u);
	uirq_free_irq(irq, &dev_a);
	tc_teardown();
}

UIRQ_TEST(core_request, shutdown_then_rerequest_serves, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(11);
	struct tc_line *l = tc_line_of(irq);

	for (int round = 0; round < 3; round++) {
		atomic_store(&primary_calls, 0);
		assert_eq(uirq_request_irq(irq, primary, 0, "r", &dev_a), 0);
		assert_eq(atomic_load(&l->masked), 0, "startup unmasks");
		tc_edge(irq);
		assert_true(tc_wait_atomic_ge(&primary_calls, 1, 2000));
		assert_str_eq(uirq_free_irq(irq, &dev_a), "r");
		assert_eq(atomic_load(&l->masked), 1, "shutdown masks");
		assert_false(uirq_irq_is_enabled(irq));
	}
	tc_teardown();
}

UIRQ_TEST(core_request, bus_lock_around_process_paths, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(12);
	int n;

	n = atomic_load(&tc.bus_lock);
	assert_eq(uirq_request_irq(irq, primary, 0, "b", &dev_a), 0);
	assert_gt(atomic_load(&tc.bus_lock), n, "request");
	n = atomic_load(&tc.bus_lock);
	uirq_disable_irq(irq);
	assert_eq(atomic_load(&tc.bus_lock), n + 1, "disable");
	uirq_enable_irq(irq);
	assert_eq(atomic_load(&tc.bus_lock), n + 2, "enable");
	assert_eq(uirq_irq_set_irq_type(irq, UIRQ_TYPE_LEVEL_HIGH), 0);
	assert_eq(atomic_load(&tc.bus_lock), n + 3, "set_type");
	assert_eq(uirq_irq_get_trigger_type(irq), UIRQ_TYPE_LEVEL_HIGH);
	uirq_free_irq(irq, &dev_a);
	assert_gt(atomic_load(&tc.bus_lock), n + 3, "free");
	assert_eq(atomic_load(&tc.bus_lock), atomic_load(&tc.bus_unlock));
	tc_teardown();	/* asserts the bus lock never ran in interrupt context */
}

static unsigned int hard_irq_line;
static uirq_irqreturn_t disabling_primary(int irq, void *dev)
{
	(void)dev;
	/* From hard-irq context: no bus lock may be taken. */
	uirq_disable_irq_nosync((unsigned int)irq);
	uirq_enable_irq((unsigned int)irq);
	uirq_disable_irq_nosync(hard_irq_line);
	atomic_fetch_add(&primary_calls, 1);
	return UIRQ_IRQ_HANDLED;
}

UIRQ_TEST(core_request, no_bus_lock_in_hardirq, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_edge_irq);
	unsigned int irq = tc_irq(13);

	hard_irq_line = tc_irq(14);
	assert_eq(uirq_request_irq(hard_irq_line, primary, 0, "other", &dev_b), 0);
	assert_eq(uirq_request_irq(irq, disabling_primary, 0, "h", &dev_a), 0);
	tc_edge(irq);
	assert_true(tc_wait_atomic_ge(&primary_calls, 1, 2000));
	assert_eq(uirq_irq_get_depth(hard_irq_line), 1u);
	assert_eq(atomic_load(&tc.bus_in_irq), 0);
	uirq_enable_irq(hard_irq_line);
	uirq_free_irq(irq, &dev_a);
	uirq_free_irq(hard_irq_line, &dev_b);
	tc_teardown();
}

static int set_type_fail(struct uirq_irq_data *d, unsigned int type)
{
	(void)d;
	(void)type;
	return -EINVAL;
}

UIRQ_TEST(core_request, set_type_failure, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(15);

	tc.chip.irq_set_type = set_type_fail;
	tc_capture_begin();
	int ret = uirq_irq_set_irq_type(irq, UIRQ_TYPE_EDGE_RISING);
	const char *out = tc_capture_end();

	assert_eq(ret, -EINVAL);
	assert_true(strstr(out, "Setting trigger mode 1 for irq"), "%s", out);
	/* %pS: a symbol (static functions too, from .symtab), or where none is found the chip; never a raw address. */
	assert_true(strstr(out, "(set_type_fail+0x0)") || strstr(out, "(TESTCHIP irq_set_type)"), "%s", out);
	assert_null(strstr(out, "0x5"), "a raw address: %s", out);
	assert_null(strstr(out, "0x7"), "a raw address: %s", out);
	/* A request with a trigger the chip refuses fails with the chip's error. */
	assert_eq(uirq_request_irq(irq, primary, UIRQF_TRIGGER_RISING, "t", &dev_a), -EINVAL);
	tc_teardown();
}

UIRQ_TEST(core_request, descriptor_allocator, .timeout = 20)
{
	int a = uirq_irq_alloc_descs(-1, 100, 10);

	assert_eq(a, 100);
	assert_eq(uirq_irq_alloc_descs(105, 100, 1), -EEXIST);
	assert_eq(uirq_irq_alloc_descs(5, 10, 1), -EINVAL);
	int b = uirq_irq_alloc_descs(-1, 100, 3);

	assert_eq(b, 110);
	uirq_irq_free_descs(102, 3);
	assert_null(uirq_irq_to_desc(103));
	assert_not_null(uirq_irq_to_desc(105));
	assert_eq(uirq_irq_alloc_descs(-1, 100, 3), 102);
	assert_eq(uirq_irq_alloc_descs(-1, 100, 4), 113);
	uirq_irq_free_descs(100, 17);
	assert_null(uirq_irq_to_desc(110));
	assert_eq(uirq_irq_alloc_descs(-1, 0, 0), -EINVAL);
}

/*
 * The chip's resources of a line (irq_request_resources, as a GPIO
 * controller locks a pin as an interrupt): asked by the first handler's
 * request, bus-locked; given back after the last handler is freed; a
 * refusal refuses the request with its error and the kernel's message.
 */
static atomic_int reqres, relres, reqres_err, reqres_locked;

static int tc_reqres(struct uirq_irq_data *d)
{
	(void)d;
	atomic_fetch_add(&reqres, 1);
	atomic_store(&reqres_locked, atomic_load(&tc.bus_lock) > atomic_load(&tc.bus_unlock));
	return atomic_load(&reqres_err);
}

static void tc_relres(struct uirq_irq_data *d)
{
	(void)d;
	atomic_fetch_add(&relres, 1);
}

UIRQ_TEST(core_request, chip_resources_follow_the_first_and_last_handler, .timeout = 20)
{
	tc_setup(1, false, false, uirq_handle_level_irq);
	unsigned int irq = tc_irq(2);

	tc.chip.irq_request_resources = tc_reqres;
	tc.chip.irq_release_resources = tc_relres;
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED, "a", &dev_a), 0);
	assert_eq(atomic_load(&reqres), 1);
	assert_eq(atomic_load(&reqres_locked), 1, "asked under the bus lock");
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED, "b", &dev_b), 0);
	assert_eq(atomic_load(&reqres), 1, "a sharer asks nothing more");
	uirq_free_irq(irq, &dev_a);
	assert_eq(atomic_load(&relres), 0, "a handler remains");
	uirq_free_irq(irq, &dev_b);
	assert_eq(atomic_load(&relres), 1, "the last one gives it back");
	/* Refused: the request fails with the chip's error, nothing installed, nothing to give back. */
	atomic_store(&reqres_err, -EBUSY);
	tc_capture_begin();
	assert_eq(uirq_request_irq(irq, primary, 0, "c", &dev_c), -EBUSY);
	const char *err = tc_capture_end();

	assert_not_null(strstr(err, "genirq: Failed to request resources for c (irq"), "%s", err);
	assert_false(uirq_irq_has_action(irq));
	assert_eq(atomic_load(&relres), 1);
	/* A refusal by the flags after the chip said yes gives its resources back. */
	atomic_store(&reqres_err, 0);
	assert_eq(uirq_request_irq(irq, primary, UIRQF_SHARED, "d", &dev_a), 0);
	assert_eq(uirq_request_irq(irq, primary, 0, "e", &dev_b), -EBUSY, "not shared: a mismatch");
	assert_eq(atomic_load(&reqres), 3);
	uirq_free_irq(irq, &dev_a);
	assert_eq(atomic_load(&relres), 2);
	tc.chip.irq_request_resources = NULL;
	tc.chip.irq_release_resources = NULL;
	tc_teardown();
}
