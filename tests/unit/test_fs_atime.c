/*
 * Host tests for fs/atime.c: the relatime rule case by case, and when
 * vfs_accessed() asks the filesystem to store an atime -- over a fake
 * vnode whose ops record what they were asked.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/wallclock_fake.h"
#include "fs/vfs.h"
#include "kernel/errno.h"

#define NOW	1700000000LL
#define DAY	(24 * 60 * 60)

struct due_case {
	const char	*name;
	s64		atime, mtime, ctime;
	bool		due;
};

static const struct due_case due_cases[] = {
	{ "atime before mtime",		NOW - 100, NOW - 50, NOW - 200, true },
	{ "atime equal to mtime",	NOW - 100, NOW - 100, NOW - 200, true },
	{ "atime before ctime",		NOW - 100, NOW - 200, NOW - 50, true },
	{ "atime equal to ctime",	NOW - 100, NOW - 200, NOW - 100, true },
	{ "fresh, after both",		NOW - 100, NOW - 200, NOW - 300, false },
	{ "a day old, after both",	NOW - DAY, NOW - DAY - 1, NOW - DAY - 1, true },
	{ "a second short of a day",	NOW - DAY + 1, NOW - DAY, NOW - DAY, false },
	{ "already now",		NOW, NOW, NOW, false },
	{ "ahead of the clock",		NOW + 100, NOW - 200, NOW - 200, false },
};

static void test_due(void)
{
	struct vfs_stat st = { 0 };
	size_t i;

	for (i = 0; i < sizeof(due_cases) / sizeof(due_cases[0]); i++) {
		const struct due_case *c = &due_cases[i];

		st.st_atime = c->atime;
		st.st_mtime = c->mtime;
		st.st_ctime = c->ctime;
		if (vfs_atime_due(&st, NOW) != c->due)
			unit_fail(__FILE__, __LINE__, "%s: due should be %d", c->name, c->due);
	}
}

/* The fake file: its times, and the atimes it was asked to store. */
static struct vfs_stat fake_st;
static int fake_sets, fake_getattr_err;
static s64 fake_set_to;

static int fake_getattr(struct vnode *v, struct vfs_stat *st)
{
	*st = fake_st;
	return fake_getattr_err;
}

static int fake_set_atime(struct vnode *v, s64 atime)
{
	fake_sets++;
	fake_set_to = atime;
	fake_st.st_atime = atime;
	return 0;
}

static const struct vnode_ops fake_ops = {
	.vop_getattr	= fake_getattr,
	.vop_set_atime	= fake_set_atime,
};

static const struct vnode_ops fake_ops_no_atime = {
	.vop_getattr	= fake_getattr,
};

static struct vfs_mount fake_mnt;
static struct vnode fake_v = { .v_ops = &fake_ops, .v_mnt = &fake_mnt, .v_count = 1 };

static void fake_reset(s64 atime, s64 mtime, s64 ctime)
{
	fake_st = (struct vfs_stat){ .st_atime = atime, .st_mtime = mtime, .st_ctime = ctime };
	fake_sets = fake_getattr_err = 0;
	fake_set_to = 0;
	fake_mnt.mnt_flags = 0;
	fake_v.v_ops = &fake_ops;
	host_wallclock = NOW;
}

/* An old atime is renewed to the clock's time once; the next access writes nothing. */
static void test_accessed_once(void)
{
	fake_reset(NOW - 2 * DAY, NOW - 3 * DAY, NOW - 3 * DAY);
	CHECK_EQ(vfs_accessed(&fake_v), 0);
	CHECK_EQ(fake_sets, 1);
	CHECK_EQ(fake_set_to, NOW);
	host_wallclock = NOW + 60;
	CHECK_EQ(vfs_accessed(&fake_v), 0);
	CHECK_EQ(fake_sets, 1);
	/* a write since (mtime moves past atime) makes the next access due */
	fake_st.st_mtime = NOW + 30;
	CHECK_EQ(vfs_accessed(&fake_v), 0);
	CHECK_EQ(fake_sets, 2);
	CHECK_EQ(fake_set_to, NOW + 60);
}

static void test_accessed_readonly(void)
{
	fake_reset(NOW - 2 * DAY, NOW - 3 * DAY, NOW - 3 * DAY);
	fake_mnt.mnt_flags = VFS_MNT_RDONLY;
	CHECK_EQ(vfs_accessed(&fake_v), 0);
	CHECK_EQ(fake_sets, 0);
}

static void test_accessed_no_op(void)
{
	fake_reset(NOW - 2 * DAY, NOW - 3 * DAY, NOW - 3 * DAY);
	fake_v.v_ops = &fake_ops_no_atime;
	CHECK_EQ(vfs_accessed(&fake_v), 0);
	CHECK_EQ(fake_sets, 0);
	fake_v.v_ops = &fake_ops;
}

static void test_accessed_getattr_error(void)
{
	fake_reset(NOW - 2 * DAY, NOW - 3 * DAY, NOW - 3 * DAY);
	fake_getattr_err = -EIO;
	CHECK_EQ(vfs_accessed(&fake_v), -EIO);
	CHECK_EQ(fake_sets, 0);
}

static const struct unit_case cases[] = {
	{ "relatime_rule", test_due },
	{ "accessed_once_then_not", test_accessed_once },
	{ "accessed_readonly_mount", test_accessed_readonly },
	{ "accessed_without_op", test_accessed_no_op },
	{ "accessed_getattr_error", test_accessed_getattr_error },
};

UNIT_MAIN("fs_atime", cases)
