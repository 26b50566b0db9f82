/* SPDX-License-Identifier: MIT */
/*
 * CPU masks as the kernel passes them (irq_set_affinity() takes a
 * struct cpumask *): a bitmap of NR_CPUS bits, of which uirq's CPUs use
 * the first 64.
 */
#ifndef UIRQ_COMPAT_LINUX_CPUMASK_H
#define UIRQ_COMPAT_LINUX_CPUMASK_H

#include <stdint.h>
#include <linux/bitops.h>

#define NR_CPUS		64
#define nr_cpu_ids	NR_CPUS

struct cpumask {
	unsigned long bits[BITS_TO_LONGS(NR_CPUS)];
};
typedef struct cpumask cpumask_t;

#define cpumask_bits(m)		((m)->bits)

static inline void cpumask_clear(struct cpumask *m)
{
	for (unsigned int i = 0; i < BITS_TO_LONGS(NR_CPUS); i++)
		m->bits[i] = 0;
}

static inline void cpumask_set_cpu(unsigned int cpu, struct cpumask *m)
{
	if (cpu < NR_CPUS)
		set_bit((long)cpu, m->bits);
}

static inline void cpumask_clear_cpu(unsigned int cpu, struct cpumask *m)
{
	if (cpu < NR_CPUS)
		clear_bit((long)cpu, m->bits);
}

static inline bool cpumask_test_cpu(unsigned int cpu, const struct cpumask *m)
{
	return cpu < NR_CPUS && test_bit((long)cpu, m->bits);
}

/* The mask as uirq takes it: bit N for CPU N. */
static inline uint64_t uirq_cpumask_bits(const struct cpumask *m)
{
	uint64_t v = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (cpumask_test_cpu(cpu, m))
			v |= (uint64_t)1 << cpu;
	return v;
}

#endif
