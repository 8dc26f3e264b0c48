/* Shutdown hooks on the host; see power_fake.h. */
#include "tests/unit/fakes/power_fake.h"

static LIST_HEAD(hooks);

void register_shutdown_hook(struct shutdown_hook *h)
{
	list_add_tail(&h->sh_entry, &hooks);
}

int host_run_shutdown_hooks(void)
{
	struct shutdown_hook *h;
	int n = 0;

	list_for_each_entry(h, &hooks, sh_entry) {
		h->sh_fn();
		n++;
	}
	return n;
}
