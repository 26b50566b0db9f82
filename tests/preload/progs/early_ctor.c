// SPDX-License-Identifier: MIT
/* Linked against libearly, whose constructor locks before the interposer's constructor ran. */
int early_linked(void);

int main(void)
{
	return early_linked();
}
