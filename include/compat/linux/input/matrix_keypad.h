/* SPDX-License-Identifier: MIT */
/*
 * Matrix keypads: a key's (row, column) and its code packed in one u32,
 * and the keymap a board hands a keypad driver.
 */
#ifndef UIRQ_COMPAT_LINUX_INPUT_MATRIX_KEYPAD_H
#define UIRQ_COMPAT_LINUX_INPUT_MATRIX_KEYPAD_H

#include <linux/input.h>
#include <linux/types.h>

#define MATRIX_MAX_ROWS		32
#define MATRIX_MAX_COLS		32

#define KEY(row, col, val)	((((row) & (MATRIX_MAX_ROWS - 1)) << 24) | \
				 (((col) & (MATRIX_MAX_COLS - 1)) << 16) | ((val) & 0xffff))
#define KEY_ROW(k)		(((k) >> 24) & 0xff)
#define KEY_COL(k)		(((k) >> 16) & 0xff)
#define KEY_VAL(k)		((k) & 0xffff)
#define MATRIX_SCAN_CODE(row, col, row_shift)	(((row) << (row_shift)) + (col))

struct matrix_keymap_data {
	const u32 *keymap;
	unsigned int keymap_size;
};

struct device;

/* drivers/input/matrix-keymap.c's, compiled unmodified with the drivers that use them. */
int matrix_keypad_build_keymap(const struct matrix_keymap_data *keymap_data, const char *keymap_name,
			       unsigned int rows, unsigned int cols, unsigned short *keymap,
			       struct input_dev *input_dev);
int matrix_keypad_parse_properties(struct device *dev, unsigned int *rows, unsigned int *cols);

#endif
