/* SPDX-License-Identifier: MIT */
/* The sources' shared state and operations (sources.c, src_edu.c, src_gpio.c). */
#ifndef UIRQ_LATENCY_SOURCES_H
#define UIRQ_LATENCY_SOURCES_H

#include "latency.h"

struct uirq_fd_line;
struct uirq_vfio_dev;
struct uirq_irq_domain;

struct source_ops {
	int (*line)(struct source *s, unsigned int *irq);
	void (*line_done)(struct source *s);
	int (*fd)(struct source *s);
	void (*fd_done)(struct source *s);
	void (*ack)(struct source *s, bool baseline);
	int (*raise)(struct source *s, struct run *r, bool baseline);
	void (*close)(struct source *s);
};

struct source {
	const struct opts *o;
	const struct source_ops *ops;
	struct uirq_fd_line *line;	/* eventfd, timerfd, uio, gpio */
	int fd;				/* the baseline's */
	/* edu (src_edu.c) */
	volatile uint32_t *bar;
	struct uirq_vfio_dev *vfio;
	struct uirq_irq_domain *domain;
	int uio_fd;			/* uio: the device's config space (sysfs) */
	char path[256];
	/* gpio (src_gpio.c) */
	unsigned int offset;
	int level;
	int pull_fd;
};

/* A line-making call's result (the irq, or -errno) into *irq: 0 or the error. */
int src_line_made(int ret, unsigned int *irq);
/* Destroy s->line (an fd line of the source's own). */
void src_line_done(struct source *s);
/* Close s->fd (the baseline's). */
void src_fd_done(struct source *s);
int edu_open(struct source *s, const char **why);
int gpio_open(struct source *s, const char **why);

#endif
