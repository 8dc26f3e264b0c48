/*
 * Shared part of the partition fuzz targets (see fuzz_disk.h): build the
 * sparse disk from the input, run one format's probe on it, and abort if
 * the result breaks the contract of block/partitions/check.h: a read past
 * the end, an entry outside the disk or past the minors limit, entries out
 * of order or overlapping (other than logicals inside their extended
 * partition), an unterminated name, or a "found" without a scheme.
 */
#include <stdlib.h>
#include <string.h>
#include "tests/fuzz/fuzz_disk.h"
#include "lib/byteorder.h"

#define FUZZ_MAX_BLOCKS	(1ULL << 40)	/* capacity cap: 512 TiB of 512-byte blocks */
#define FUZZ_LIMIT_MAX	128

struct fuzz_disk {
	const uint8_t	*fd_data;
	u32		fd_bs;
	u64		fd_blocks;
	u64		fd_head;	/* data blocks at the start */
	u64		fd_tail;	/* data blocks at the end */
};

static int fuzz_read(void *ctx, u64 lba, void *buf)
{
	struct fuzz_disk *d = ctx;

	if (lba >= d->fd_blocks)
		abort();	/* the parsers promise never to do this */
	if (lba < d->fd_head)
		memcpy(buf, d->fd_data + lba * d->fd_bs, d->fd_bs);
	else if (lba >= d->fd_blocks - d->fd_tail)
		memcpy(buf, d->fd_data + (d->fd_head + lba - (d->fd_blocks - d->fd_tail)) * d->fd_bs,
		       d->fd_bs);
	else
		memset(buf, 0, d->fd_bs);
	return 0;
}

static void fuzz_check(const struct parsed_partitions *pp, int ret, const struct fuzz_disk *d)
{
	u64 end = d->fd_blocks * (d->fd_bs / 512);
	u32 i, j;

	if (ret < 0 || ret > 1 || pp->pp_nr > pp->pp_limit)
		abort();
	if (ret == 1 && pp->pp_scheme == PART_SCHEME_NONE)
		abort();
	if (ret == 0 && pp->pp_nr != 0)
		abort();
	for (i = 0; i < pp->pp_nr; i++) {
		const struct part_entry *a = &pp->pp_entries[i];

		if (a->pe_partno == 0 || a->pe_partno > pp->pp_limit || a->pe_nr_sects == 0 ||
		    a->pe_start >= end || a->pe_nr_sects > end - a->pe_start)
			abort();
		if (i > 0 && a->pe_partno <= pp->pp_entries[i - 1].pe_partno)
			abort();
		if (memchr(a->pe_name, 0, sizeof(a->pe_name)) == NULL)
			abort();
		for (j = 0; j < i; j++) {
			const struct part_entry *b = &pp->pp_entries[j];

			if ((a->pe_flags | b->pe_flags) & PART_F_EXTENDED)
				continue;
			if (a->pe_start < b->pe_start + b->pe_nr_sects &&
			    b->pe_start < a->pe_start + a->pe_nr_sects)
				abort();
		}
	}
}

int fuzz_disk_run(const uint8_t *data, size_t size, const struct part_format *fmt)
{
	static struct part_entry entries[FUZZ_LIMIT_MAX];
	static u8 buf[4096];
	struct parsed_partitions pp;
	struct fuzz_disk d;
	u64 nb;
	int ret;

	if (size < FUZZ_HDR_LEN)
		return 0;
	d.fd_bs = (data[0] & 1) ? 4096 : 512;
	d.fd_data = data + FUZZ_HDR_LEN;
	nb = (size - FUZZ_HDR_LEN) / d.fd_bs;
	d.fd_head = (nb + 1) / 2;
	d.fd_tail = nb - d.fd_head;
	d.fd_blocks = get_le64(data + 1);
	if (d.fd_blocks > FUZZ_MAX_BLOCKS)
		d.fd_blocks = FUZZ_MAX_BLOCKS;
	if (d.fd_blocks < nb)
		d.fd_blocks = nb;

	memset(&pp, 0, sizeof(pp));
	pp.pp_name = "fuzz";
	pp.pp_block_size = d.fd_bs;
	pp.pp_nr_blocks = d.fd_blocks;
	pp.pp_read = fuzz_read;
	pp.pp_ctx = &d;
	pp.pp_buf = buf;
	pp.pp_entries = entries;
	pp.pp_limit = 1 + (data[0] >> 1);	/* 1..128 */
	ret = fmt->pf_probe(&pp);
	fuzz_check(&pp, ret, &d);
	return 0;
}
