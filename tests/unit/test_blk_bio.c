/*
 * Host tests of the bio pools (block/bio.c): bio_init_pools() is all or
 * nothing -- a failure part way leaves no pool behind, the next call
 * builds the whole set, and later calls change nothing -- so a partial
 * failure at boot can never be reported as success with vector pools
 * missing.  Then every vector size can be allocated.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/fakes.h"
#include "tests/unit/fakes/sched_fake.h"
#include "block/bio.h"
#include "kernel/errno.h"

#define BIO_NR_POOLS	4	/* the bio pool and three vector pools */

static void test_pools_all_or_nothing(void)
{
	static const unsigned vecs[] = { 0, 1, 4, 5, 16, 17, 64, 65, BIO_MAX_VECS };
	struct bio *bio;
	unsigned i;
	long n;

	for (n = 0; n < BIO_NR_POOLS; n++) {	/* pool n cannot be made */
		host_mempool_create_fail_after = n;
		CHECK_EQ(bio_init_pools(), -ENOMEM);
		host_mempool_create_fail_after = -1;
		CHECK_EQ(host_mempool_pools, 0);	/* nothing half made */
	}
	CHECK_EQ(bio_init_pools(), 0);		/* the retry makes the whole set */
	CHECK_EQ(host_mempool_pools, BIO_NR_POOLS);
	host_mempool_create_fail_after = 0;
	CHECK_EQ(bio_init_pools(), 0);		/* done once: nothing to make */
	host_mempool_create_fail_after = -1;
	CHECK_EQ(host_mempool_pools, BIO_NR_POOLS);
	if (host_mempool_pools != BIO_NR_POOLS)
		return;				/* bio_alloc would use a NULL pool */
	for (i = 0; i < ARRAY_SIZE(vecs); i++) {
		bio = bio_alloc(GFP_NOIO, vecs[i]);
		CHECK(bio != NULL);
		if (bio)
			bio_put(bio);
	}
	CHECK(bio_alloc(GFP_NOIO, BIO_MAX_VECS + 1) == NULL);
	CHECK_EQ(host_bios_live(), 0);
}

static const struct unit_case cases[] = {
	{ "bio/pools_all_or_nothing", test_pools_all_or_nothing },
};

UNIT_MAIN("block_bio", cases)
