/*
 * Host tests for fs/jbd2: crc32c, tag packing in the four layouts,
 * escaping, and recovery over an in-memory disk with hand-made logs
 * (revokes, an escaped block, a torn last transaction, csum v3, corrupt
 * commits and descriptors: refused with nothing written), then the
 * writer: transactions committed by commit.c replay to the same bytes.
 */
#include "tests/unit/unit.h"
#include "tests/unit/fakes/buffer_file.h"
#include "fs/jbd2/jbd2.h"
#include "fs/buffer.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "lib/crc32c.h"

#define BS	1024u			/* block size */
#define NBLK	1400u			/* blocks on the disk */
#define JSTART	200u			/* the journal's first disk block */
#define JLEN	1024u			/* its blocks */

static u8 disk[NBLK * BS];

static u8 *blk(u32 b) { return disk + (size_t)b * BS; }
static u8 *jlog(u32 l) { return blk(JSTART + l); }

static void test_crc32c(void)
{
	/* CRC-32C check value (RFC 3720 B.4 style): init ~0, final inversion */
	CHECK_EQ(crc32c(~0u, "123456789", 9) ^ ~0u, 0xE3069283u);
}

static void tag_roundtrip(u32 incompat, u32 want_bytes)
{
	struct jbd2_fmt f = { .f_bsize = BS, .f_incompat = incompat };
	u8 d[BS], uuid[16] = { 1, 2, 3 };
	struct jbd2_tag_info in[3] = {
		{ 0x12345678, 0, 0xBEEF },
		{ 0x9ABCDEF0ull | (incompat & JBD2_FEATURE_INCOMPAT_64BIT ? 0x700000000ull : 0),
		  JBD2_FLAG_SAME_UUID | JBD2_FLAG_ESCAPE, 0x1234 },
		{ 7, JBD2_FLAG_SAME_UUID | JBD2_FLAG_LAST_TAG, 0 },
	}, out;
	u32 off = 12, got = 12;
	int i;

	CHECK_EQ(jbd2_tag_bytes(&f), want_bytes);
	memset(d, 0xAA, sizeof(d));
	for (i = 0; i < 3; i++)
		jbd2_tag_put(&f, d, &off, &in[i], uuid);
	CHECK_EQ(off, 12 + 3 * want_bytes + 16);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(jbd2_tag_get(&f, d, &got, &out), 0);
		CHECK(out.ti_block == in[i].ti_block);
		CHECK_EQ(out.ti_flags, in[i].ti_flags);
		if (incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)
			CHECK_EQ(out.ti_csum, in[i].ti_csum);
		else if (incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2)
			CHECK_EQ(out.ti_csum, in[i].ti_csum & 0xFFFF);
	}
	CHECK_EQ(got, off);
	/* a tag that would run past the block */
	got = BS - 2;
	CHECK_EQ(jbd2_tag_get(&f, d, &got, &out), -EUCLEAN);
}

static void test_tags(void)
{
	tag_roundtrip(0, 8);
	tag_roundtrip(JBD2_FEATURE_INCOMPAT_64BIT, 12);
	tag_roundtrip(JBD2_FEATURE_INCOMPAT_CSUM_V2, 10);
	tag_roundtrip(JBD2_FEATURE_INCOMPAT_CSUM_V2 | JBD2_FEATURE_INCOMPAT_64BIT, 14);
	tag_roundtrip(JBD2_FEATURE_INCOMPAT_CSUM_V3, 16);
	tag_roundtrip(JBD2_FEATURE_INCOMPAT_CSUM_V3 | JBD2_FEATURE_INCOMPAT_64BIT, 16);
}

static void test_escape(void)
{
	u8 b[BS] = { 0xC0, 0x3B, 0x39, 0x98, 5 };

	CHECK(jbd2_needs_escape(b));
	jbd2_escape(b, true);
	CHECK(!jbd2_needs_escape(b) && b[0] == 0 && b[4] == 5);
	jbd2_escape(b, false);
	CHECK(jbd2_needs_escape(b));
}

/* A fresh disk: home blocks filled with their number, a v2 journal superblock. */
static void make_disk(u32 incompat, u32 seq, u32 start)
{
	struct jbd2_superblock *sb = (struct jbd2_superblock *)jlog(0);
	u32 i;

	for (i = 0; i < NBLK; i++)
		memset(blk(i), (u8)i, BS);
	memset(jlog(0), 0, (size_t)JLEN * BS);
	jbd2_header_set(sb, JBD2_SUPERBLOCK_V2, 0);
	sb->s_blocksize = cpu_to_be32(BS);
	sb->s_maxlen = cpu_to_be32(JLEN);
	sb->s_first = cpu_to_be32(1);
	sb->s_sequence = cpu_to_be32(seq);
	sb->s_start = cpu_to_be32(start);
	sb->s_feature_incompat = cpu_to_be32(incompat);
	memset(sb->s_uuid, 0x5A, 16);
	if (incompat & (JBD2_FEATURE_INCOMPAT_CSUM_V2 | JBD2_FEATURE_INCOMPAT_CSUM_V3)) {
		sb->s_checksum_type = JBD2_CRC32C_CHKSUM;
		sb->s_checksum = cpu_to_be32(jbd2_sb_csum(sb));
	}
}

static void open_journal(struct jbd2_journal *j, struct block_device *bdev)
{
	const char *why;

	memset(j, 0, sizeof(*j));
	j->j_bdev = bdev;
	j->j_fs_blocks = NBLK;
	j->j_runs = kmalloc(sizeof(*j->j_runs), GFP_KERNEL);
	j->j_runs[0] = (struct jbd2_run){ .r_lblk = 0, .r_len = JLEN, .r_pblk = JSTART };
	j->j_nruns = 1;
	CHECK_EQ(jbd2_open(j, BS, &why), 0);
}

/* Descriptor at log @l naming @n home blocks, their copies after it (content: @fill[i]). */
static u32 put_tx(const struct jbd2_fmt *f, u32 l, u32 tid, const u64 *home, const u8 *fill,
		  u32 n)
{
	u8 *d = jlog(l);
	u32 off = 12, i;
	u8 uuid[16];

	memset(uuid, 0x5A, 16);
	jbd2_header_set(d, JBD2_DESCRIPTOR_BLOCK, tid);
	for (i = 0; i < n; i++) {
		struct jbd2_tag_info t = { .ti_block = home[i] };
		u8 *c = jlog(l + 1 + i);

		memset(c, fill[i], BS);
		if (fill[i] == 0xC0) {		/* a block that begins with the magic */
			jbd2_escape(c, false);
			jbd2_escape(c, true);
			t.ti_flags |= JBD2_FLAG_ESCAPE;
		}
		t.ti_flags |= (i ? JBD2_FLAG_SAME_UUID : 0) | (i == n - 1 ? JBD2_FLAG_LAST_TAG : 0);
		t.ti_csum = jbd2_block_csum(f, tid, c);
		jbd2_tag_put(f, d, &off, &t, uuid);
	}
	jbd2_tail_set(f, d);
	return l + 1 + n;
}

static u32 put_commit(const struct jbd2_fmt *f, u32 l, u32 tid)
{
	memset(jlog(l), 0, BS);
	jbd2_header_set(jlog(l), JBD2_COMMIT_BLOCK, tid);
	jbd2_commit_set(f, jlog(l));
	return l + 1;
}

static u32 put_revoke(const struct jbd2_fmt *f, u32 l, u32 tid, u64 b)
{
	memset(jlog(l), 0, BS);
	jbd2_header_set(jlog(l), JBD2_REVOKE_BLOCK, tid);
	jbd2_revoke_put(f, jlog(l), 0, b);
	jbd2_tail_set(f, jlog(l));
	return l + 1;
}

static bool all(const u8 *p, u8 v)
{
	u32 i;

	for (i = 0; i < BS; i++)
		if (p[i] != v)
			return false;
	return true;
}

/*
 * tid 5: blocks 10 (0xA1) and 11 (begins with the magic); tid 6: block 12
 * (0xB2) and a revoke of 10; tid 7: block 13, never committed.
 */
static void log_three(u32 incompat, struct jbd2_fmt *f)
{
	const u64 h5[] = { 10, 11 }, h6[] = { 12 }, h7[] = { 13 };
	const u8 f5[] = { 0xA1, 0xC0 }, f6[] = { 0xB2 }, f7[] = { 0xC3 };
	u32 l;

	make_disk(incompat, 5, 1);
	memset(f, 0, sizeof(*f));
	f->f_bsize = BS;
	f->f_incompat = incompat;
	f->f_seed = crc32c(~0u, ((struct jbd2_superblock *)jlog(0))->s_uuid, 16);
	l = put_tx(f, 1, 5, h5, f5, 2);
	l = put_commit(f, l, 5);
	l = put_tx(f, l, 6, h6, f6, 1);
	l = put_revoke(f, l, 6, 10);
	l = put_commit(f, l, 6);
	put_tx(f, l, 7, h7, f7, 1);
}

static void recover_three(u32 incompat)
{
	struct block_device *bdev = bdev_mem_open(disk, sizeof(disk), false, "mem");
	struct jbd2_superblock *sb = (struct jbd2_superblock *)jlog(0);
	struct jbd2_recovery rc;
	struct jbd2_journal j;
	struct jbd2_fmt f;
	const char *why;

	log_three(incompat, &f);
	open_journal(&j, bdev);
	CHECK(jbd2_needs_recovery(&j));
	CHECK_EQ(jbd2_recover(&j, &rc, &why), 0);
	CHECK_EQ(rc.rc_end_tid, 7);
	CHECK_EQ(rc.rc_replayed, 2);
	CHECK_EQ(rc.rc_revoked, 1);
	CHECK(all(blk(10), 10));		/* revoked by tid 6 */
	CHECK(jbd2_needs_escape(blk(11)) && blk(11)[4] == 0xC0 && blk(11)[BS - 1] == 0xC0);
	CHECK(all(blk(12), 0xB2));
	CHECK(all(blk(13), 13));		/* tid 7 never committed */
	CHECK_EQ(be32_to_cpu(sb->s_start), 0);
	CHECK_EQ(be32_to_cpu(sb->s_sequence), 7);
	jbd2_close(&j);
	bdev_file_close(bdev);
}

static void test_recover_plain(void) { recover_three(JBD2_FEATURE_INCOMPAT_REVOKE); }
static void test_recover_64bit(void)
{
	recover_three(JBD2_FEATURE_INCOMPAT_REVOKE | JBD2_FEATURE_INCOMPAT_64BIT);
}
static void test_recover_csum_v2(void)
{
	recover_three(JBD2_FEATURE_INCOMPAT_REVOKE | JBD2_FEATURE_INCOMPAT_CSUM_V2);
}
static void test_recover_csum_v3(void)
{
	recover_three(JBD2_FEATURE_INCOMPAT_REVOKE | JBD2_FEATURE_INCOMPAT_CSUM_V3);
}

/* Damage the log made by log_three(); recovery must fail and write nothing. */
static void refuse(u32 incompat, void (*damage)(void), const char *want)
{
	struct block_device *bdev = bdev_mem_open(disk, sizeof(disk), false, "mem");
	static u8 before[NBLK * BS];
	struct jbd2_recovery rc;
	struct jbd2_journal j;
	struct jbd2_fmt f;
	const char *why;

	log_three(incompat, &f);
	damage();
	memcpy(before, disk, sizeof(disk));
	open_journal(&j, bdev);
	CHECK_EQ(jbd2_recover(&j, &rc, &why), -EUCLEAN);
	CHECK(why && strstr(why, want));
	CHECK(!memcmp(before, disk, sizeof(disk)));
	jbd2_close(&j);
	bdev_file_close(bdev);
}

static void bad_commit_csum(void) { jlog(4)[20] ^= 1; }		/* tid 5's commit */
static void bad_data_csum(void) { jlog(2)[100] ^= 1; }		/* tid 5's first copy */
static void bad_desc_csum(void) { jlog(5)[30] ^= 1; }		/* tid 6's descriptor */
static void tag_out_of_range(void)				/* tid 6's tag: past the disk */
{
	be32 b = cpu_to_be32(NBLK + 5);

	memcpy(jlog(5) + 12, &b, 4);
}

static void test_refuse_commit_csum(void)
{
	refuse(JBD2_FEATURE_INCOMPAT_CSUM_V3, bad_commit_csum, "commit block");
}
static void test_refuse_data_csum(void)
{
	refuse(JBD2_FEATURE_INCOMPAT_CSUM_V3, bad_data_csum, "checksum");
}
static void test_refuse_desc_csum(void)
{
	refuse(JBD2_FEATURE_INCOMPAT_CSUM_V2, bad_desc_csum, "descriptor");
}
static void test_refuse_garbage_tag(void)
{
	refuse(0, tag_out_of_range, "outside the filesystem");
}

/* A torn descriptor in the uncommitted last transaction is only the log's end. */
static void test_torn_tail_ok(void)
{
	struct block_device *bdev = bdev_mem_open(disk, sizeof(disk), false, "mem");
	struct jbd2_recovery rc;
	struct jbd2_journal j;
	struct jbd2_fmt f;
	const char *why;

	log_three(JBD2_FEATURE_INCOMPAT_CSUM_V3, &f);
	jlog(9)[40] ^= 1;			/* tid 7's descriptor */
	open_journal(&j, bdev);
	CHECK_EQ(jbd2_recover(&j, &rc, &why), 0);
	CHECK_EQ(rc.rc_end_tid, 7);
	CHECK(all(blk(12), 0xB2));
	jbd2_close(&j);
	bdev_file_close(bdev);
}

/* The writer: commits, then a "power cut" copy of the disk replays to the committed bytes. */
static void test_commit_replays(void)
{
	static u8 crash[NBLK * BS];
	static int want[NBLK];		/* committed fill byte + 1 of each block, 0: unknown */
	static bool esc[NBLK];		/* ... and it begins with the magic */
	struct block_device *bdev, *cdev;
	struct jbd2_recovery rc;
	struct jbd2_journal j, cj;
	const char *why;
	u32 i, round, b;

	make_disk(0, 40, 0);
	bdev = bdev_mem_open(disk, sizeof(disk), false, "mem");
	open_journal(&j, bdev);
	CHECK(!jbd2_needs_recovery(&j));
	CHECK_EQ(jbd2_start(&j, 5, NULL, NULL), 0);
	for (b = 0; b < NBLK; b++)
		want[b] = b < JSTART ? (u8)b + 1 : 0;
	for (round = 0; round < 60; round++) {	/* wraps the log and checkpoints */
		CHECK_EQ(jbd2_handle_start(&j, true), 0);
		for (i = 0; i < 20; i++) {
			struct buffer_head *bh;

			b = 20 + (round * 7 + i) % 90;
			bh = bread(bdev, b, BS);
			memset(bh->b_data, (u8)(round + 1), BS);
			esc[b] = b % 10 == 3;
			if (esc[b])
				jbd2_escape(bh->b_data, false);	/* needs escaping */
			CHECK_EQ(jbd2_dirty_metadata(&j, bh), 0);
			brelse(bh);
			want[b] = round + 2;
		}
		if (round % 5 == 4) {
			b = 20 + (round * 7) % 90;
			CHECK_EQ(jbd2_revoke(&j, b), 0);
			want[b] = 0;
		}
		CHECK_EQ(jbd2_handle_stop(&j), 0);
		CHECK_EQ(jbd2_commit(&j), 0);
	}
	CHECK(j.j_checkpoints > 0);
	CHECK(j.j_commits == 60);
	memcpy(crash, disk, sizeof(disk));	/* the cut: nothing the cache held */
	cdev = bdev_mem_open(crash, sizeof(crash), false, "crash");
	memset(&cj, 0, sizeof(cj));
	cj.j_bdev = cdev;
	cj.j_fs_blocks = NBLK;
	cj.j_runs = kmalloc(sizeof(*cj.j_runs), GFP_KERNEL);
	cj.j_runs[0] = (struct jbd2_run){ .r_lblk = 0, .r_len = JLEN, .r_pblk = JSTART };
	cj.j_nruns = 1;
	CHECK_EQ(jbd2_open(&cj, BS, &why), 0);
	CHECK(jbd2_needs_recovery(&cj));
	CHECK_EQ(jbd2_recover(&cj, &rc, &why), 0);
	for (b = 20; b < 110; b++) {
		const u8 *p = crash + (size_t)b * BS;

		if (!want[b])
			continue;
		if (esc[b]) {
			CHECK(jbd2_needs_escape(p));
			CHECK(p[4] == (u8)(want[b] - 1));
		} else {
			CHECK(all(p, (u8)(want[b] - 1)));
		}
	}
	jbd2_close(&cj);
	CHECK_EQ(jbd2_stop(&j), 0);
	jbd2_close(&j);
	CHECK_EQ(invalidate_bdev(bdev), 0);
	CHECK_EQ(invalidate_bdev(cdev), 0);
	bdev_file_close(bdev);
	bdev_file_close(cdev);
}

static const struct unit_case cases[] = {
	{ "crc32c", test_crc32c },
	{ "tags_four_layouts", test_tags },
	{ "escape", test_escape },
	{ "recover_plain", test_recover_plain },
	{ "recover_64bit", test_recover_64bit },
	{ "recover_csum_v2", test_recover_csum_v2 },
	{ "recover_csum_v3", test_recover_csum_v3 },
	{ "refuse_commit_csum", test_refuse_commit_csum },
	{ "refuse_data_csum", test_refuse_data_csum },
	{ "refuse_desc_csum", test_refuse_desc_csum },
	{ "refuse_garbage_tag", test_refuse_garbage_tag },
	{ "torn_tail_ok", test_torn_tail_ok },
	{ "commit_replays", test_commit_replays },
};

UNIT_MAIN("fs_jbd2", cases)
