/* lib/sort.c against qsort on random, sorted, reversed and equal inputs. */
#include "tests/unit/unit.h"
#include "lib/sort.h"

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void check_against_qsort(u64 *v, size_t n)
{
	u64 *ref = malloc(n * sizeof(*ref) + 1);

	memcpy(ref, v, n * sizeof(*v));
	qsort(ref, n, sizeof(*ref), cmp_u64);
	sort(v, n, sizeof(*v), cmp_u64);
	CHECK(memcmp(ref, v, n * sizeof(*v)) == 0);
	free(ref);
}

static void test_shapes(void)
{
	static u64 v[5000];
	u64 seed = 88172645463325252ULL;
	size_t n, i;

	for (n = 0; n < 70; n++) {
		for (i = 0; i < n; i++) {
			seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
			v[i] = seed % (n + 1);
		}
		check_against_qsort(v, n);
	}
	for (i = 0; i < 5000; i++)
		v[i] = i;
	check_against_qsort(v, 5000);
	for (i = 0; i < 5000; i++)
		v[i] = 5000 - i;
	check_against_qsort(v, 5000);
	for (i = 0; i < 5000; i++)
		v[i] = 7;
	check_against_qsort(v, 5000);
}

static const struct unit_case cases[] = {
	{ "shapes", test_shapes },
};

UNIT_MAIN("lib/sort", cases)
