/*
 * Insertion into ext4 hash tree directories, keeping the index valid
 * (ext4 wiki "Hash Tree Directories"; the lookup side is htree.c).
 *
 * A name goes into the leaf its hash selects.  A full leaf is split by
 * hash: its live entries sorted by hash, the upper half (by size) moves to
 * a new block, and the first moved hash enters the index after the old
 * leaf's entry, with bit 0 set when the lower half ends in the same hash
 * (lookups then go on to the next leaf).  A full index node splits the
 * same way; a full root moves its entries into a new node below it and
 * the tree grows a level, up to 2 levels below the root (3 with
 * large_dir).  Index and leaf blocks are committed through
 * ext2_dir_commit(), which sets their checksums with metadata_csum.
 */
#include "fs/ext2/htree.h"
#include "kernel/errno.h"
#include "kernel/mm/slab.h"
#include "kernel/printk.h"
#include "lib/sort.h"
#include "lib/string.h"

/* A live entry of a leaf being split. */
struct dx_map {
	u32	m_hash;
	u16	m_off;
	u16	m_size;
};

/* Make @bh an empty interior node (a fake unused entry spanning the block). */
static void dx_format_node(struct ext2_inode_info *dir, struct buffer_head *bh)
{
	struct ext2_dir_entry *de = (struct ext2_dir_entry *)bh->b_data;
	struct ext2_fs *fs = dir->ei_fs;

	memset(bh->b_data, 0, fs->fs_bsize);
	de->rec_len = cpu_to_le16((u16)fs->fs_bsize);
	dx_cl(bh, DX_NODE_ENTRIES)->limit = cpu_to_le16((u16)ext2_dx_limit(fs, false));
}

/* Can one more entry go into the bottom index block, splitting as needed? */
static bool dx_room(struct ext2_inode_info *dir, const struct dx_path *p)
{
	u32 i;

	for (i = 0; i < p->p_levels; i++) {
		const struct dx_frame *f = &p->p_frame[i];

		if (dx_count(f->f_bh, f->f_off) < le16_to_cpu(dx_cl(f->f_bh, f->f_off)->limit))
			return true;
	}
	return p->p_levels < ext2_dx_max_levels(dir->ei_fs);
}

/* Insert {@hash, @blk} after the chosen entry of frame @f, which has room. */
static void dx_insert_at(struct dx_frame *f, u32 hash, u32 blk)
{
	struct dx_entry *e = dx_entries(f->f_bh, f->f_off);
	u32 count = dx_count(f->f_bh, f->f_off);

	memmove(&e[f->f_at + 2], &e[f->f_at + 1], (count - f->f_at - 1) * sizeof(*e));
	e[f->f_at + 1].hash = cpu_to_le32(hash);
	e[f->f_at + 1].block = cpu_to_le32(blk);
	dx_set_count(f->f_bh, f->f_off, count + 1);
}

/*
 * The root is full: move its entries into a new node below it, leaving
 * one entry, and shift the path down a level.  0 or -errno.
 */
static int dx_grow_root(struct ext2_inode_info *dir, struct dx_path *p)
{
	struct dx_frame *root = &p->p_frame[0];
	u32 count = dx_count(root->f_bh, root->f_off), i;
	struct buffer_head *bh;
	u64 lblk;
	int err;

	bh = ext2_dir_new_block(dir, &lblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	dx_format_node(dir, bh);
	/* entry 0's hash field is the count/limit in both blocks: copy its block only */
	dx_entries(bh, DX_NODE_ENTRIES)[0].block = dx_entries(root->f_bh, root->f_off)[0].block;
	memcpy(&dx_entries(bh, DX_NODE_ENTRIES)[1], &dx_entries(root->f_bh, root->f_off)[1],
	       (count - 1) * sizeof(struct dx_entry));
	dx_set_count(bh, DX_NODE_ENTRIES, count);
	dx_set_count(root->f_bh, root->f_off, 1);
	dx_entries(root->f_bh, root->f_off)[0].block = cpu_to_le32((u32)lblk);
	dx_info(root->f_bh)->indirect_levels++;
	for (i = p->p_levels; i > 1; i--)
		p->p_frame[i] = p->p_frame[i - 1];
	p->p_frame[1] = (struct dx_frame){ .f_bh = bh, .f_lblk = lblk, .f_off = DX_NODE_ENTRIES,
					   .f_at = root->f_at };
	root->f_at = 0;
	p->p_levels++;
	err = ext2_dir_commit(dir, bh, lblk);
	if (!err)
		err = ext2_dir_commit(dir, root->f_bh, 0);
	return err;
}

/*
 * Insert {@hash, @blk} into the index block at @level of the path, after
 * its chosen entry, splitting full blocks upwards.  0 or -errno.
 */
static int dx_insert(struct ext2_inode_info *dir, struct dx_path *p, u32 level, u32 hash, u32 blk)
{
	struct dx_frame *f = &p->p_frame[level];
	u32 count = dx_count(f->f_bh, f->f_off), half, levels;
	struct buffer_head *bh;
	u64 lblk;
	int err;

	if (count < le16_to_cpu(dx_cl(f->f_bh, f->f_off)->limit)) {
		dx_insert_at(f, hash, blk);
		return ext2_dir_commit(dir, f->f_bh, f->f_lblk);
	}
	if (level == 0) {
		err = dx_grow_root(dir, p);
		return err ? err : dx_insert(dir, p, 1, hash, blk);
	}
	/* A full node: its upper half moves to a new node, entered in the parent. */
	bh = ext2_dir_new_block(dir, &lblk);
	if (IS_ERR(bh))
		return PTR_ERR(bh);
	dx_format_node(dir, bh);
	half = count / 2;
	dx_entries(bh, DX_NODE_ENTRIES)[0].block = dx_entries(f->f_bh, f->f_off)[half].block;
	memcpy(&dx_entries(bh, DX_NODE_ENTRIES)[1], &dx_entries(f->f_bh, f->f_off)[half + 1],
	       (count - half - 1) * sizeof(struct dx_entry));
	dx_set_count(bh, DX_NODE_ENTRIES, count - half);
	dx_set_count(f->f_bh, f->f_off, half);
	levels = p->p_levels;
	err = dx_insert(dir, p, level - 1, le32_to_cpu(dx_entries(f->f_bh, f->f_off)[half].hash),
			(u32)lblk);
	if (p->p_levels != levels)
		level++;		/* the root grew: this node moved down the path */
	f = &p->p_frame[level];
	if (!err)
		err = ext2_dir_commit(dir, bh, lblk);
	if (!err)
		err = ext2_dir_commit(dir, f->f_bh, f->f_lblk);
	if (err) {
		brelse(bh);
		return err;
	}
	if (f->f_at >= half) {
		brelse(f->f_bh);
		f->f_bh = bh;
		f->f_lblk = lblk;
		f->f_at -= half;
		p->p_frame[level - 1].f_at++;
	} else {
		brelse(bh);
	}
	dx_insert_at(f, hash, blk);
	return ext2_dir_commit(dir, f->f_bh, f->f_lblk);
}

static int dx_map_cmp(const void *a, const void *b)
{
	const struct dx_map *x = a, *y = b;

	if (x->m_hash != y->m_hash)
		return x->m_hash < y->m_hash ? -1 : 1;
	return x->m_off < y->m_off ? -1 : x->m_off > y->m_off;
}

/* Write the entries @m[0..n) of the old block image @old into empty leaf @bh, packed. */
static void dx_pack(struct ext2_inode_info *dir, struct buffer_head *bh, u64 lblk,
		    const u8 *old, const struct dx_map *m, u32 n)
{
	u32 end = ext2_dir_end(dir, bh, lblk), off = 0, i;
	struct ext2_dir_entry *de = NULL;

	ext2_dir_format_leaf(dir, bh);
	for (i = 0; i < n; i++) {
		de = (struct ext2_dir_entry *)(bh->b_data + off);
		memcpy(de, old + m[i].m_off, m[i].m_size);
		de->rec_len = cpu_to_le16(m[i].m_size);
		off += m[i].m_size;
	}
	if (de)
		de->rec_len = cpu_to_le16((u16)(le16_to_cpu(de->rec_len) + end - off));
}

/*
 * Split full leaf @bh (@lblk) by hash: the upper half of its entries (by
 * size) goes to the new leaf @nbh (@nlblk).  *@split gets the first hash
 * of the new leaf, bit 0 set if the lower half ends with the same hash.
 * Both blocks committed.  0 or -errno.
 */
static int dx_split_leaf(struct ext2_inode_info *dir, struct dx_path *p,
			 struct buffer_head *bh, u64 lblk, struct buffer_head *nbh, u64 nlblk,
			 u32 *split)
{
	struct ext2_fs *fs = dir->ei_fs;
	u32 end = ext2_dir_end(dir, bh, lblk), off, n = 0, i, total = 0, sum = 0;
	struct dx_map *m;
	u8 *old;
	int rec, err = -ENOMEM;

	m = kmalloc(fs->fs_bsize / EXT2_DIR_REC_LEN(1) * sizeof(*m), GFP_KERNEL);
	old = kmalloc(fs->fs_bsize, GFP_KERNEL);
	if (!m || !old)
		goto out;
	memcpy(old, bh->b_data, fs->fs_bsize);
	for (off = 0; off < end; off += (u32)rec) {
		const struct ext2_dir_entry *de = (const struct ext2_dir_entry *)(old + off);
		u32 nlen;

		rec = ext2_dir_check_entry(dir, bh, off, end);
		if (rec < 0) {
			err = rec;
			goto out;
		}
		if (!de->inode)
			continue;
		nlen = ext2_de_namelen(fs, de);
		m[n].m_hash = ext2_dx_hash(p->p_version, p->p_seed, de->name, nlen);
		m[n].m_off = (u16)off;
		m[n].m_size = (u16)EXT2_DIR_REC_LEN(nlen);
		total += m[n].m_size;
		n++;
	}
	err = -ENOSPC;
	if (n < 2)
		goto out;	/* a full leaf holds at least two entries */
	sort(m, n, sizeof(*m), dx_map_cmp);
	for (i = 0; i + 1 < n && sum + m[i].m_size <= total / 2; i++)
		sum += m[i].m_size;
	if (i == 0)
		i = 1;
	*split = m[i].m_hash | (m[i].m_hash == m[i - 1].m_hash);
	dx_pack(dir, nbh, nlblk, old, m + i, n - i);
	dx_pack(dir, bh, lblk, old, m, i);
	err = ext2_dir_commit(dir, nbh, nlblk);
	if (!err)
		err = ext2_dir_commit(dir, bh, lblk);
out:
	kfree(old);
	kfree(m);
	return err;
}

/**
 * ext2_dx_add - add @name -> @ino (a file of @mode) to indexed directory @dir
 * The name goes into the leaf its hash selects; a full leaf splits and
 * the index grows (up to its levels: -ENOSPC beyond).  The caller has
 * checked that @name is not there.  Returns 0, -EAGAIN when the index is
 * bad (reported; nothing changed), -ENOSPC, -EUCLEAN, -EIO.
 */
int ext2_dx_add(struct ext2_inode_info *dir, const char *name, size_t len, u32 ino, u32 mode)
{
	struct buffer_head *bh = NULL, *nbh;
	struct dx_path p;
	u64 leaf, nleaf;
	u32 split;
	int err;

	err = ext2_dx_probe(dir, name, len, &p);
	if (err)
		goto out;
	leaf = ext2_dx_leaf(&p);
	bh = ext2_dir_read(dir, leaf);
	if (IS_ERR(bh)) {
		err = PTR_ERR(bh);
		bh = NULL;
		goto out;
	}
	if (leaf == 0 || ext2_dx_is_node(dir, bh, leaf)) {
		err = ext2_dx_bad(dir, leaf, "leaf expected, index found");
		goto out;
	}
	err = ext2_dir_block_add(dir, bh, leaf, name, len, ino, mode);
	if (err != -ENOSPC)
		goto out;
	if (!dx_room(dir, &p))
		goto out;	/* -ENOSPC: the index is as large as it may be */
	nbh = ext2_dir_new_block(dir, &nleaf);
	if (IS_ERR(nbh)) {
		err = PTR_ERR(nbh);
		goto out;
	}
	err = dx_split_leaf(dir, &p, bh, leaf, nbh, nleaf, &split);
	if (!err)
		err = dx_insert(dir, &p, p.p_levels - 1, split, (u32)nleaf);
	if (!err)
		err = ext2_dir_block_add(dir, p.p_hash >= split ? nbh : bh,
					 p.p_hash >= split ? nleaf : leaf, name, len, ino, mode);
	brelse(nbh);
out:
	brelse(bh);
	ext2_dx_release(&p);
	return err;
}
