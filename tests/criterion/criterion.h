/* Transitional: tests written against <criterion/criterion.h> get the Check-based harness. */
#include "../harness.h"
