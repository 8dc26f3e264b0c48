/*
 * One node of an ext4 extent tree in memory (ext4 wiki "Extent Tree"):
 * the checks a node read from disk must pass before anything follows
 * it, and the entry moves that insertion, splitting and truncation are
 * made of.  No I/O and no filesystem state: extents.c and
 * extents_write.c read and write the nodes, and the host unit test
 * (tests/unit/test_fs_ext4_extents.c) runs these on buffers.
 *
 * A node is a header and eh_max entries of 12 bytes, sorted by their
 * first field, the key.  Leaves (depth 0) hold extents, which must not
 * overlap; index nodes hold child pointers with strictly increasing
 * keys.  Every key of a node lies inside the range [lo, hi) its parent
 * index gives it.
 */
#include "fs/ext2/extents.h"
#include "kernel/errno.h"
#include "lib/string.h"

/* Entries a tree block of @bytes holds (the tail fits after them). */
u32 ext4_node_capacity(u32 bytes)
{
	return (bytes - (u32)sizeof(struct ext4_extent_header)) / EXT4_EXT_ENTRY;
}

/* An empty node of @max entries at @depth. */
void ext4_node_init(struct ext4_extent_header *h, u32 max, u32 depth)
{
	h->eh_magic = cpu_to_le16(EXT4_EXT_MAGIC);
	h->eh_entries = 0;
	h->eh_max = cpu_to_le16((u16)max);
	h->eh_depth = cpu_to_le16((u16)depth);
	h->eh_generation = 0;
}

/*
 * Check node @h that has room for @cap entries, is expected at @depth and
 * whose keys must lie in [@lo, @hi).  Returns 0, or -EUCLEAN with *why
 * saying what is wrong.  Physical block numbers are the caller's to check
 * against the filesystem; here only the high halves must be 0.
 */
int ext4_node_check(const struct ext4_extent_header *h, u32 cap, u32 depth, u32 lo, u32 hi,
		    const char **why)
{
	u32 n = le16_to_cpu(h->eh_entries), max = le16_to_cpu(h->eh_max), i;
	u64 prev_end = lo;
	const struct ext4_extent *e = (const struct ext4_extent *)(h + 1);
	const struct ext4_extent_idx *x = (const struct ext4_extent_idx *)(h + 1);

	*why = NULL;
	if (le16_to_cpu(h->eh_magic) != EXT4_EXT_MAGIC)
		*why = "bad magic";
	else if (le16_to_cpu(h->eh_depth) != depth)
		*why = "depth differs from the parent's";
	else if (max > cap || max < min(cap, 3u))
		*why = "eh_max does not fit the node";
	else if (n > max)
		*why = "more entries than eh_max";
	for (i = 0; !*why && i < n; i++) {
		u32 key = ext4_entry_key(h, i);

		if (key < prev_end || key >= hi) {
			*why = depth ? "index keys unsorted or out of range" :
				       "extents overlap, unsorted or out of range";
		} else if (depth) {
			if (le16_to_cpu(x[i].ei_leaf_hi))
				*why = "index block beyond 2^32";
			prev_end = (u64)key + 1;
		} else {
			if (le16_to_cpu(e[i].ee_start_hi))
				*why = "extent block beyond 2^32";
			else if (ext4_ext_len(&e[i]) == 0)
				*why = "empty extent";
			else if ((u64)key + ext4_ext_len(&e[i]) > hi)
				*why = "extent past its range";
			prev_end = (u64)key + ext4_ext_len(&e[i]);
		}
	}
	return *why ? -EUCLEAN : 0;
}

/* How many entries have keys <= @lblk: the entry that covers @lblk is the one before. */
u32 ext4_node_search(const struct ext4_extent_header *h, u32 lblk)
{
	u32 lo = 0, hi = le16_to_cpu(h->eh_entries);

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;

		if (ext4_entry_key(h, mid) <= lblk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static u8 *entry_at(struct ext4_extent_header *h, u32 i)
{
	return (u8 *)(h + 1) + i * EXT4_EXT_ENTRY;
}

/* Insert @entry at @pos (the node has room; the caller keeps the order). */
void ext4_node_insert(struct ext4_extent_header *h, u32 pos, const void *entry)
{
	u32 n = le16_to_cpu(h->eh_entries);

	memmove(entry_at(h, pos + 1), entry_at(h, pos), (n - pos) * EXT4_EXT_ENTRY);
	memcpy(entry_at(h, pos), entry, EXT4_EXT_ENTRY);
	h->eh_entries = cpu_to_le16((u16)(n + 1));
}

void ext4_node_remove(struct ext4_extent_header *h, u32 pos)
{
	u32 n = le16_to_cpu(h->eh_entries);

	memmove(entry_at(h, pos), entry_at(h, pos + 1), (n - pos - 1) * EXT4_EXT_ENTRY);
	memset(entry_at(h, n - 1), 0, EXT4_EXT_ENTRY);
	h->eh_entries = cpu_to_le16((u16)(n - 1));
}

/* Move the entries of @from from @first on to the end of @to (which has room). */
void ext4_node_move_tail(struct ext4_extent_header *from, u32 first,
			 struct ext4_extent_header *to)
{
	u32 n = le16_to_cpu(from->eh_entries), m = le16_to_cpu(to->eh_entries);

	memcpy(entry_at(to, m), entry_at(from, first), (n - first) * EXT4_EXT_ENTRY);
	memset(entry_at(from, first), 0, (n - first) * EXT4_EXT_ENTRY);
	to->eh_entries = cpu_to_le16((u16)(m + n - first));
	from->eh_entries = cpu_to_le16((u16)first);
}

/*
 * Where to split full node @h (at least two entries) for a key that
 * would go at @pos (ext4_node_search): an append moves only the last
 * entry, so that a file written in order leaves full nodes behind; else
 * half the entries move.  The entries from the result on go to the new
 * node.
 */
u32 ext4_node_split_point(const struct ext4_extent_header *h, u32 pos)
{
	u32 n = le16_to_cpu(h->eh_entries);

	return pos >= n ? n - 1 : max(n / 2, 1u);
}

/* Can @right be appended to @left as one extent? */
bool ext4_ext_can_merge(const struct ext4_extent *left, const struct ext4_extent *right)
{
	bool uninit = ext4_ext_uninit(left);
	u32 len = ext4_ext_len(left) + ext4_ext_len(right);

	if (uninit != ext4_ext_uninit(right))
		return false;
	if ((u64)ext4_ext_lblk(left) + ext4_ext_len(left) != ext4_ext_lblk(right))
		return false;
	if ((u64)ext4_ext_pblk(left) + ext4_ext_len(left) != ext4_ext_pblk(right))
		return false;
	return len <= (uninit ? EXT4_EXT_UNINIT_MAX_LEN : EXT4_EXT_INIT_MAX_LEN);
}

/* Byte offset of the checksum tail of a tree block (ext4 wiki "Checksums"). */
u32 ext4_node_tail_offset(const struct ext4_extent_header *h)
{
	return (u32)sizeof(*h) + le16_to_cpu(h->eh_max) * EXT4_EXT_ENTRY;
}
