// SPDX-License-Identifier: MIT
/*
 * Every supply is the kernel's dummy regulator (<linux/regulator/consumer.h>
 * says why): one always-on regulator device, "regulator-dummy", shared by
 * all consumers, each consumer counting its own enables as the kernel's
 * struct regulator does.  One mutex stands for the dummy device's lock;
 * enabling may sleep there, as the kernel's does.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include <linux/errno.h>
#include <linux/regulator/consumer.h>

#define DUMMY_NAME	"regulator-dummy"

struct regulator {
	const struct device *dev;
	char *supply;
	int enable_count;		/* under dummy_lock */
	struct regulator *next;		/* every consumer, under dummy_lock */
};

static DEFINE_MUTEX(dummy_lock);
static struct regulator *consumers;

/* A consumer of the dummy for dev's supply id. */
static struct regulator *get_dummy(struct device *dev, const char *id)
{
	struct regulator *r = calloc(1, sizeof(*r));

	if (!r || !(r->supply = strdup(id ? id : ""))) {
		free(r);
		return ERR_PTR(-ENOMEM);
	}
	dev_warn(dev, "supply %s not found, using dummy regulator\n", r->supply);
	r->dev = dev;
	mutex_lock(&dummy_lock);
	r->next = consumers;
	consumers = r;
	mutex_unlock(&dummy_lock);
	return r;
}

struct regulator *regulator_get(struct device *dev, const char *id)
{
	return get_dummy(dev, id);
}

struct regulator *regulator_get_exclusive(struct device *dev, const char *id)
{
	(void)id;
	dev_warn(dev, "dummy supplies not allowed for exclusive requests\n");
	return ERR_PTR(-ENODEV);
}

/* An optional supply the firmware does not describe is absent: the driver goes on without it. */
struct regulator *regulator_get_optional(struct device *dev, const char *id)
{
	(void)dev, (void)id;
	return ERR_PTR(-ENODEV);
}

void regulator_put(struct regulator *regulator)
{
	if (IS_ERR_OR_NULL(regulator))
		return;
	mutex_lock(&dummy_lock);
	for (struct regulator **pp = &consumers; *pp; pp = &(*pp)->next) {
		if (*pp == regulator) {
			*pp = regulator->next;
			break;
		}
	}
	mutex_unlock(&dummy_lock);
	free(regulator->supply);
	free(regulator);
}

static void devm_put(void *regulator)
{
	regulator_put(regulator);
}

/* get(dev, id), put when dev's driver unbinds. */
static struct regulator *devm_get(struct device *dev, const char *id,
				  struct regulator *(*get)(struct device *, const char *))
{
	struct regulator *r = get(dev, id);
	int ret;

	if (IS_ERR(r))
		return r;
	ret = devm_add_action_or_reset(dev, devm_put, r);
	return ret ? ERR_PTR(ret) : r;
}

struct regulator *devm_regulator_get(struct device *dev, const char *id)
{
	return devm_get(dev, id, regulator_get);
}

struct regulator *devm_regulator_get_optional(struct device *dev, const char *id)
{
	return devm_get(dev, id, regulator_get_optional);
}

int regulator_enable(struct regulator *regulator)
{
	might_sleep();
	mutex_lock(&dummy_lock);
	regulator->enable_count++;
	mutex_unlock(&dummy_lock);
	return 0;
}

int regulator_disable(struct regulator *regulator)
{
	int ret = 0;

	might_sleep();
	mutex_lock(&dummy_lock);
	if (regulator->enable_count == 0)
		ret = -EIO;
	else
		regulator->enable_count--;
	mutex_unlock(&dummy_lock);
	if (ret)
		pr_warn("unbalanced disables for %s\n", DUMMY_NAME);
	return ret;
}

int regulator_is_enabled(struct regulator *regulator)
{
	(void)regulator;
	return 1;
}

int regulator_bulk_get(struct device *dev, int num_consumers, struct regulator_bulk_data *c)
{
	for (int i = 0; i < num_consumers; i++) {
		c[i].consumer = regulator_get(dev, c[i].supply);
		if (IS_ERR(c[i].consumer)) {
			int ret = dev_err_probe(dev, (int)PTR_ERR(c[i].consumer), "Failed to get supply '%s'\n",
						c[i].supply);

			c[i].consumer = NULL;
			regulator_bulk_free(i, c);
			return ret;
		}
	}
	return 0;
}

struct bulk_devres {
	int num;
	struct regulator_bulk_data *consumers;
};

static void devm_bulk_free(struct device *dev, void *res)
{
	struct bulk_devres *b = res;

	(void)dev;
	regulator_bulk_free(b->num, b->consumers);
}

int devm_regulator_bulk_get(struct device *dev, int num_consumers, struct regulator_bulk_data *consumers)
{
	struct bulk_devres *b = devres_alloc(devm_bulk_free, sizeof(*b), GFP_KERNEL);
	int ret;

	if (!b)
		return -ENOMEM;
	ret = regulator_bulk_get(dev, num_consumers, consumers);
	if (ret) {
		devres_free(b);
		return ret;
	}
	b->num = num_consumers;
	b->consumers = consumers;
	devres_add(dev, b);
	return 0;
}

int regulator_bulk_enable(int num_consumers, struct regulator_bulk_data *c)
{
	for (int i = 0; i < num_consumers; i++)
		c[i].ret = regulator_enable(c[i].consumer);
	return 0;
}

/* The kernel's order: last first; a failure re-enables what this call disabled. */
int regulator_bulk_disable(int num_consumers, struct regulator_bulk_data *c)
{
	for (int i = num_consumers - 1; i >= 0; i--) {
		int ret = regulator_disable(c[i].consumer);

		if (ret) {
			/* The kernel's %pe: the error's name. */
			pr_err("Failed to disable %s: -%s\n", c[i].supply, strerrorname_np(-ret));
			for (int j = i + 1; j < num_consumers; j++)
				regulator_enable(c[j].consumer);
			return ret;
		}
	}
	return 0;
}

void regulator_bulk_free(int num_consumers, struct regulator_bulk_data *c)
{
	for (int i = 0; i < num_consumers; i++) {
		regulator_put(c[i].consumer);
		c[i].consumer = NULL;
	}
}

int uirq_regulator_enable_count(const struct device *dev, const char *id)
{
	int n = -ENODEV;

	mutex_lock(&dummy_lock);
	for (struct regulator *r = consumers; r; r = r->next) {
		if (r->dev == dev && !strcmp(r->supply, id ? id : ""))
			n = (n < 0 ? 0 : n) + r->enable_count;
	}
	mutex_unlock(&dummy_lock);
	return n;
}
