// SPDX-License-Identifier: MIT
/* Linked with -static: the runner must refuse it (LD_PRELOAD cannot reach it). */
#include <stdio.h>

int main(void)
{
	puts("static program ran");
	return 0;
}
