/* SPDX-License-Identifier: MIT */
/* Fixture of no_global_state: a counter with static storage must be found. */
int virq_fixture_calls_;
int virq_fixture_count_(void);
int virq_fixture_count_(void)
{
	return ++virq_fixture_calls_;
}
