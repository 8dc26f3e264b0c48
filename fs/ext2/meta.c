/*
 * ext2 metadata zones: the blocks the filesystem's own structures occupy
 * -- in each group the superblock copy, the descriptor table and its
 * reserved growth blocks (groups with a backup), the block and inode
 * bitmaps and the inode table -- kept as a sorted array of disjoint
 * extents, built at mount from the checked group descriptors.  Linux's
 * ext4 calls the same set the system zone.
 *
 * Two uses.  Mount refuses descriptors whose structures overlap (a bitmap
 * inside an inode table, two groups sharing a bitmap, a table over the
 * superblock): every later allocation would write one structure over
 * another.  And every block number a file's block map yields, that the
 * allocator hands out or that is freed is checked with ext2_data_run(),
 * so that a bad pointer or a bitmap claiming metadata free is reported
 * and refused instead of letting file data overwrite metadata.  With
 * flex_bg a group's structures may sit in another group, which is why
 * the check is one global search rather than a look at the block's group.
 */
#include "fs/ext2/ext2.h"
#include "kernel/errno.h"
#include "kernel/printk.h"
#include "kernel/mm/slab.h"
#include "lib/sort.h"

/* One structure of one group, while the zones are built. */
struct meta_extent {
	u32	me_start;
	u32	me_len;
	u32	me_group;
	u32	me_kind;	/* index into meta_kind_names */
};

enum { META_SUPER, META_BLOCK_BITMAP, META_INODE_BITMAP, META_INODE_TABLE, META_KINDS };

static const char *const meta_kind_names[META_KINDS] = {
	[META_SUPER]		= "superblock and descriptors",
	[META_BLOCK_BITMAP]	= "block bitmap",
	[META_INODE_BITMAP]	= "inode bitmap",
	[META_INODE_TABLE]	= "inode table",
};

static int cmp_extent(const void *a, const void *b)
{
	const struct meta_extent *x = a, *y = b;

	return x->me_start < y->me_start ? -1 : x->me_start > y->me_start;
}

/* The structures of group @g into @e (at most META_KINDS); returns how many. */
static u32 group_extents(const struct ext2_fs *fs, u32 g, struct meta_extent *e)
{
	const struct ext2_group_desc *gd = &fs->fs_gd[g];
	u32 n = 0;

	if (ext2_group_has_super(fs, g))
		e[n++] = (struct meta_extent){
			fs->fs_first_data_block + g * fs->fs_blocks_per_group,
			1 + fs->fs_gdt_blocks + le16_to_cpu(fs->fs_sb.s_reserved_gdt_blocks),
			g, META_SUPER };
	e[n++] = (struct meta_extent){ le32_to_cpu(gd->bg_block_bitmap), 1, g, META_BLOCK_BITMAP };
	e[n++] = (struct meta_extent){ le32_to_cpu(gd->bg_inode_bitmap), 1, g, META_INODE_BITMAP };
	e[n++] = (struct meta_extent){ le32_to_cpu(gd->bg_inode_table), fs->fs_itable_blocks,
				       g, META_INODE_TABLE };
	return n;
}

/**
 * ext2_meta_init - build the zones from the loaded group descriptors
 * The descriptors' structures must already lie inside the filesystem.
 * Returns 0, -EINVAL when two structures overlap or one runs past the end
 * of the filesystem (printed), or -ENOMEM.
 */
int ext2_meta_init(struct ext2_fs *fs, const char *dev)
{
	u64 cap = (u64)fs->fs_groups * META_KINDS;
	struct meta_extent *e;
	struct ext2_zone *z;
	u32 n = 0, g, i, nz = 0;
	int err = 0;

	if (cap > (u64)UINT32_MAX / sizeof(*e))
		return -ENOMEM;
	e = kmalloc((size_t)cap * sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	for (g = 0; g < fs->fs_groups; g++)
		n += group_extents(fs, g, e + n);
	sort(e, n, sizeof(*e), cmp_extent);
	for (i = 0; i < n; i++) {
		const struct meta_extent *x = &e[i], *prev = i ? &e[i - 1] : NULL;

		if ((u64)x->me_start + x->me_len > fs->fs_blocks_count) {
			pr_err("ext2 (%s): group %u's %s runs past the end of the filesystem\n",
			       dev, x->me_group, meta_kind_names[x->me_kind]);
			err = -EINVAL;
			goto free_extents;
		}
		if (prev && x->me_start < prev->me_start + prev->me_len) {
			pr_err("ext2 (%s): group %u's %s overlaps group %u's %s at block %u\n", dev,
			       x->me_group, meta_kind_names[x->me_kind], prev->me_group,
			       meta_kind_names[prev->me_kind], x->me_start);
			err = -EINVAL;
			goto free_extents;
		}
	}
	/* The zones: the extents, sorted and disjoint, with touching ones merged. */
	z = kmalloc(n * sizeof(*z), GFP_KERNEL);
	if (!z) {
		err = -ENOMEM;
		goto free_extents;
	}
	for (i = 0; i < n; i++) {
		u32 end = e[i].me_start + e[i].me_len;

		if (nz > 0 && e[i].me_start == z[nz - 1].z_end)
			z[nz - 1].z_end = end;
		else
			z[nz++] = (struct ext2_zone){ e[i].me_start, end };
	}
	fs->fs_zones = z;
	fs->fs_nzones = nz;
free_extents:
	kfree(e);
	return err;
}

/**
 * ext2_data_run - how many of the blocks [@blk, @blk + @n) are data blocks
 * Counts from @blk up to the first block outside the filesystem or inside
 * a metadata zone; 0 means @blk itself is not a block file data or an
 * indirect block may use.
 */
u32 ext2_data_run(const struct ext2_fs *fs, u32 blk, u32 n)
{
	u32 lo = 0, hi = fs->fs_nzones;

	if (!ext2_valid_block(fs, blk))
		return 0;
	n = min(n, fs->fs_blocks_count - blk);
	/* the first zone that ends after @blk */
	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (fs->fs_zones[mid].z_end <= blk)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < fs->fs_nzones)
		n = fs->fs_zones[lo].z_start <= blk ? 0 : min(n, fs->fs_zones[lo].z_start - blk);
	return n;
}
