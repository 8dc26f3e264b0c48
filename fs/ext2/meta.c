/*
 * ext2 metadata zones: the blocks the filesystem's own structures occupy
 * -- in each group the superblock copy, the descriptor table and its
 * reserved growth blocks (groups with a backup) or with meta_bg its
 * meta group's descriptor block, the block and inode bitmaps and the
 * inode table (ext2_group_head_blocks) -- kept as a sorted array of disjoint
 * zones (touching structures merged), built at mount from the checked
 * group descriptors.  Linux's
 * ext4 calls the same set the system zone.
 *
 * Three uses.  Mount refuses descriptors whose structures overlap (a bitmap
 * inside an inode table, two groups sharing a bitmap, a table over the
 * superblock): every later allocation would write one structure over
 * another.  And every block number a file's block map yields, that the
 * allocator hands out or that is freed is checked with ext2_data_run(),
 * so that a bad pointer or a bitmap claiming metadata free is reported
 * and refused instead of letting file data overwrite metadata.  With
 * flex_bg a group's structures may sit in another group, which is why
 * the check is one global search rather than a look at the block's group.
 * And ext2_meta_mark_group() builds the block bitmap of an ext4
 * BLOCK_UNINIT group from the zones that fall in it (balloc.c).
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/sort.h"
#include "lib/string.h"

enum { META_SUPER, META_BLOCK_BITMAP, META_INODE_BITMAP, META_INODE_TABLE, META_KINDS };

static const char *const meta_kind_names[META_KINDS] = {
	[META_SUPER]		= "superblock and descriptors",
	[META_BLOCK_BITMAP]	= "block bitmap",
	[META_INODE_BITMAP]	= "inode bitmap",
	[META_INODE_TABLE]	= "inode table",
};

/*
 * The structures of group @g, kind k in blocks [start[k], end[k]) (u64: a
 * corrupt one may reach past 2^32); the superblock range is empty in a
 * group without a backup.
 */
static void group_structs(const struct ext2_fs *fs, u32 g, u64 start[META_KINDS],
			  u64 end[META_KINDS])
{
	const struct ext2_group_desc *gd = &fs->fs_gd[g];
	u32 k;

	start[META_SUPER] = fs->fs_first_data_block + (u64)g * fs->fs_blocks_per_group;
	end[META_SUPER] = start[META_SUPER] + ext2_group_head_blocks(fs, g);
	start[META_BLOCK_BITMAP] = le32_to_cpu(gd->bg_block_bitmap);
	start[META_INODE_BITMAP] = le32_to_cpu(gd->bg_inode_bitmap);
	start[META_INODE_TABLE] = le32_to_cpu(gd->bg_inode_table);
	for (k = META_BLOCK_BITMAP; k < META_KINDS; k++)
		end[k] = start[k] + (k == META_INODE_TABLE ? fs->fs_itable_blocks : 1);
}

/* Name the first two structures that hold block @blk: two overlap there. */
static void report_overlap(const struct ext2_fs *fs, const char *dev, u32 blk)
{
	u64 start[META_KINDS], end[META_KINDS];
	u32 g, k, n = 0, who[2][2];

	for (g = 0; g < fs->fs_groups && n < 2; g++) {
		group_structs(fs, g, start, end);
		for (k = 0; k < META_KINDS && n < 2; k++)
			if (start[k] <= blk && blk < end[k]) {
				who[n][0] = g;
				who[n++][1] = k;
			}
	}
	KASSERT(n == 2);
	pr_err("ext2 (%s): group %u's %s overlaps group %u's %s at block %u\n", dev, who[1][0],
	       meta_kind_names[who[1][1]], who[0][0], meta_kind_names[who[0][1]], blk);
}

static int cmp_zone(const void *a, const void *b)
{
	const struct ext2_zone *x = a, *y = b;

	return x->z_start < y->z_start ? -1 : x->z_start > y->z_start;
}

/**
 * ext2_meta_init - build the zones from the loaded group descriptors
 * The descriptors' structures must already lie inside the filesystem.
 * Returns 0, -EINVAL when two structures overlap or one runs past the end
 * of the filesystem (printed), or -ENOMEM.
 */
int ext2_meta_init(struct ext2_fs *fs, const char *dev)
{
	u64 start[META_KINDS], end[META_KINDS], cap = 0;
	struct ext2_zone *z, *fit;
	u32 n = 0, g, k, i, nz;

	for (g = 0; g < fs->fs_groups; g++)
		cap += META_KINDS - !ext2_group_head_blocks(fs, g);
	if (cap > (u64)UINT32_MAX / sizeof(*z))
		return -ENOMEM;
	z = kmalloc((size_t)cap * sizeof(*z), GFP_KERNEL);
	if (!z)
		return -ENOMEM;
	for (g = 0; g < fs->fs_groups; g++) {
		group_structs(fs, g, start, end);
		for (k = 0; k < META_KINDS; k++) {
			if (start[k] == end[k])
				continue;
			if (end[k] > fs->fs_blocks_count) {
				pr_err("ext2 (%s): group %u's %s runs past the end of the filesystem\n",
				       dev, g, meta_kind_names[k]);
				goto invalid;
			}
			z[n++] = (struct ext2_zone){ (u32)start[k], (u32)end[k] };
		}
	}
	sort(z, n, sizeof(*z), cmp_zone);
	/* Disjoint so far, so the zone before ends last: merge touching ones in place. */
	for (i = 0, nz = 0; i < n; i++) {
		if (nz > 0 && z[i].z_start < z[nz - 1].z_end) {
			report_overlap(fs, dev, z[i].z_start);
			goto invalid;
		}
		if (nz > 0 && z[i].z_start == z[nz - 1].z_end)
			z[nz - 1].z_end = z[i].z_end;
		else
			z[nz++] = z[i];
	}
	fit = kmalloc(nz * sizeof(*z), GFP_KERNEL);	/* usually far fewer than n */
	if (fit) {
		memcpy(fit, z, nz * sizeof(*z));
		kfree(z);
		z = fit;
	}
	fs->fs_zones = z;
	fs->fs_nzones = nz;
	return 0;
invalid:
	kfree(z);
	return -EINVAL;
}

/* The index of the first zone that ends after @blk (fs_nzones if none). */
static u32 zone_after(const struct ext2_fs *fs, u32 blk)
{
	u32 lo = 0, hi = fs->fs_nzones;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (fs->fs_zones[mid].z_end <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * ext2_meta_mark_group - set in @map the bits of group @g's metadata blocks
 * @map: a block bitmap of group @g (bit 0: the group's first block)
 * Every zone block inside the group is marked, whichever group's
 * structure it is (ext4 wiki "Flexible Block Groups").
 */
void ext2_meta_mark_group(const struct ext2_fs *fs, u32 g, u8 *map)
{
	u32 base = fs->fs_first_data_block + g * fs->fs_blocks_per_group;
	u32 end = base + min(fs->fs_blocks_per_group, fs->fs_blocks_count - base), i, b;

	for (i = zone_after(fs, base); i < fs->fs_nzones && fs->fs_zones[i].z_start < end; i++)
		for (b = max(fs->fs_zones[i].z_start, base); b < min(fs->fs_zones[i].z_end, end); b++)
			map[(b - base) >> 3] |= (u8)(1U << ((b - base) & 7));
}

/**
 * ext2_data_run - how many of the blocks [@blk, @blk + @n) are data blocks
 * Counts from @blk up to the first block outside the filesystem or inside
 * a metadata zone; 0 means @blk itself is not a block file data or an
 * indirect block may use.
 */
u32 ext2_data_run(const struct ext2_fs *fs, u32 blk, u32 n)
{
	u32 lo;

	if (!ext2_valid_block(fs, blk))
		return 0;
	n = min(n, fs->fs_blocks_count - blk);
	lo = zone_after(fs, blk);
	if (lo < fs->fs_nzones)
		n = fs->fs_zones[lo].z_start <= blk ? 0 : min(n, fs->fs_zones[lo].z_start - blk);
	return n;
}
