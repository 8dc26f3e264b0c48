# The kernel, its ISO, the host unit tests, and the test and run entry points.
#
#   make            kernel.elf and the image (build/kernel.iso): one hybrid file
#                   that boots as a CD or USB stick on BIOS and UEFI PCs
#   make usb        the same image (write it to a stick: see README)
#   make run        build, make the demo disks, boot QEMU with the shell on this terminal
#   make test       host unit tests (ASan+UBSan), then the QEMU scenarios
#   make fuzz       each fuzz target for a bounded time
#   make bench      the side-by-side benchmark against Linux (shared/peer)
#   make deps       install the Debian packages all of this needs
#
# Sources are found by directory: a new .c file in a kernel directory is
# part of the kernel, a new tests/unit/*.mk fragment adds a host test.

CROSS		?= i686-linux-gnu-
CC		:= $(CROSS)gcc
OBJCOPY		:= $(CROSS)objcopy
NM		:= $(CROSS)nm
HOSTCC		?= cc
BUILD		:= build
NPROC		:= $(shell nproc 2>/dev/null || echo 2)
Q		:= $(if $(V),,@)

KDIRS		:= boot kernel kernel/mm lib block block/partitions block/diag \
		   drivers/pci drivers/ata drivers/ide drivers/ahci drivers/block \
		   drivers/nvme drivers/virtio drivers/usb drivers/scsi \
		   fs fs/ext2 fs/jbd2 fs/fat
KSRCS		:= $(foreach d,$(KDIRS),$(wildcard $(d)/*.c $(d)/*.S))
KOBJS		:= $(patsubst %,$(BUILD)/k/%.o,$(basename $(KSRCS))) $(BUILD)/k/gen/fbcon_font.o
# The framebuffer console's glyphs: Terminus from Debian's console-setup-linux,
# converted at build time (tools/psf2c.py); kernel/fbcon.h picks by resolution.
FONTDIR		?= /usr/share/consolefonts
FONTS		:= $(FONTDIR)/Lat15-Terminus16.psf.gz $(FONTDIR)/Lat15-Terminus24x12.psf.gz \
		   $(FONTDIR)/Lat15-Terminus32x16.psf.gz

KCFLAGS		:= -std=gnu11 -ffreestanding -fno-pie -fno-pic -m32 -march=i686 \
		   -mgeneral-regs-only -O2 -g -Wall -Wextra -Werror \
		   -Wno-unused-parameter -Wmissing-prototypes -Wstrict-prototypes \
		   -fno-omit-frame-pointer -fno-stack-protector -fno-strict-aliasing \
		   -fno-common -fno-asynchronous-unwind-tables -I. -MMD -MP \
		   $(KDEFS)
KLDFLAGS	:= -nostdlib -static -no-pie -m32 -Wl,-T,linker.ld -Wl,--build-id=none \
		   -Wl,-z,noexecstack -Wl,-z,max-page-size=4096

HCFLAGS		:= -std=gnu11 -g -O1 -I. -DHOST_TEST -Wall -Wextra -Werror \
		   -Wno-unused-parameter -fno-omit-frame-pointer \
		   -fsanitize=address,undefined -fno-sanitize-recover=all

usb: iso

.PHONY: all kernel iso usb unit test run fuzz bench crashtest deps clean check-tools
all: kernel iso

kernel: $(BUILD)/kernel.elf

# Two links: the first finds where the functions land, the second adds
# their names (for backtraces) in a section placed after all code and
# read-only data, so no function moves between the two.
$(BUILD)/kernel.elf: $(KOBJS) linker.ld tools/ksyms.sh $(BUILD)/k/ksyms0.o
	$(Q)$(CC) $(KLDFLAGS) -o $@.pass1 $(KOBJS) $(BUILD)/k/ksyms0.o -lgcc
	$(Q)tools/ksyms.sh $(NM) $@.pass1 > $(BUILD)/k/ksyms.S
	$(Q)$(CC) $(KCFLAGS) -c -o $(BUILD)/k/ksyms.o $(BUILD)/k/ksyms.S
	$(Q)$(CC) $(KLDFLAGS) -o $@ $(KOBJS) $(BUILD)/k/ksyms.o -lgcc
	$(Q)tools/ksyms.sh $(NM) $@ | cmp -s - $(BUILD)/k/ksyms.S || \
		{ echo "ksyms: symbols moved between links" >&2; exit 1; }
	@echo "  LD      $@"

$(BUILD)/k/ksyms0.o: tools/ksyms.sh
	@mkdir -p $(dir $@)
	$(Q)tools/ksyms.sh --empty > $(BUILD)/k/ksyms0.S
	$(Q)$(CC) $(KCFLAGS) -c -o $@ $(BUILD)/k/ksyms0.S

$(BUILD)/gen/fbcon_font.c: tools/psf2c.py $(FONTS)
	@mkdir -p $(dir $@)
	@echo "  FONT    $@"
	$(Q)python3 tools/psf2c.py $@ $(FONTS)

$(BUILD)/k/gen/fbcon_font.o: $(BUILD)/gen/fbcon_font.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c -o $@ $<

$(BUILD)/k/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c -o $@ $<

$(BUILD)/k/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS      $<"
	$(Q)$(CC) $(KCFLAGS) -D__ASSEMBLY__ -c -o $@ $<

iso: $(BUILD)/kernel.iso

$(BUILD)/kernel.iso: $(BUILD)/kernel.elf boot/grub.cfg
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	$(Q)cp $(BUILD)/kernel.elf $(BUILD)/iso/boot/kernel.elf
	$(Q)cp boot/grub.cfg $(BUILD)/iso/boot/grub/grub.cfg
	$(Q)grub-mkrescue -o $@ $(BUILD)/iso >$(BUILD)/grub-mkrescue.log 2>&1 || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }
	@echo "  ISO     $@"

# Host unit tests: every tests/unit/NAME.mk adds NAME to UNIT_TESTS and sets
# NAME_SRCS (and optionally NAME_CFLAGS).  The shims in tests/unit/host/
# stand in for the kernel services portable code calls.
# UNIT_BLOCK_CORE is the block core, with fakes of the services under it,
# and UNIT_ATA the ATA layer: what the block and driver tests link.
UNIT_TESTS	:=
UNIT_BLOCK_CORE	:= block/bio.c block/blk-core.c block/blk-flush.c block/blk-merge.c \
	block/blk-mq.c block/blk-mq-dispatch.c block/blk-mq-sched.c block/blk-mq-tag.c \
	block/blk-mq-timeout.c block/blk-mq-queue.c \
	block/blk-plug.c block/blk-request.c block/blk-settings.c block/blk-stat.c block/blk-tag.c block/blk-timeout.c \
	block/blk-trace.c block/bounce.c block/elevator.c block/noop-iosched.c kernel/ratelimit.c \
	block/deadline-iosched.c block/kyber-iosched.c lib/rbtree.c lib/strutil.c \
	tests/unit/fakes/mempool_fake.c \
	tests/unit/fakes/page_fake.c tests/unit/fakes/sched_fake.c tests/unit/fakes/slab_fake.c
UNIT_ATA	:= drivers/ata/ata_cmd.c drivers/ata/ata_decode.c drivers/ata/ata_identify.c \
	drivers/ata/ata_dev.c
include $(wildcard tests/unit/*.mk)
HOST_SHIMS	:= $(wildcard tests/unit/host/*.c)
ALL_HEADERS	:= $(shell find . -name '*.h' -not -path './build/*')
UNIT_BINS	:= $(patsubst %,$(BUILD)/unit/%,$(UNIT_TESTS))

unit: $(UNIT_BINS)

define unit_rule
$(BUILD)/unit/$(1): $$($(1)_SRCS) $(HOST_SHIMS) $(ALL_HEADERS)
	@mkdir -p $$(dir $$@)
	@echo "  HOSTCC  $$@"
	$(Q)$(HOSTCC) $(HCFLAGS) $$($(1)_CFLAGS) -o $$@ $$($(1)_SRCS) $(HOST_SHIMS)
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))

# Install what is missing, once, before building.
check-tools:
	@tools/deps.sh --check || tools/deps.sh

test: check-tools
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all unit
	$(Q)tests/run $(TESTS)

run: check-tools
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)tools/run-demo $(if $(ISO),--iso) $(if $(MACHINE),--machine $(MACHINE))

fuzz: check-tools
	$(Q)tests/fuzz/run $(FUZZ_SECS)
	$(Q)FUZZ_SECS=$(or $(FUZZ_SECS),30) bash tests/host/ext2_fuzz.sh
	$(Q)FUZZ_SECS=$(or $(FUZZ_SECS),30) bash tests/host/fat_fuzz.sh
	$(Q)FUZZ_SECS=$(or $(FUZZ_SECS),30) bash tests/host/ext4_fuzz.sh

bench: check-tools
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)tools/bench $(BENCH_ARGS)

# The power-cut simulator: the crashload workload on ext3 and ext2, over
# AHCI and over a RAM disk, each log checked in STATES crash states.
SEED		?= 1
STATES		?= 1000
CRASH_OPS	?= 150
crashtest: check-tools
	$(Q)$(MAKE) --no-print-directory -j$(NPROC) all
	$(Q)fail=0; for fs in ext3 ext2; do for bus in ahci ram; do \
		tools/crashtest --fs $$fs --bus $$bus --seed $(SEED) --states $(STATES) \
			--ops $(CRASH_OPS) || fail=1; \
	done; done; exit $$fail

deps:
	$(Q)tools/deps.sh

clean:
	rm -rf $(BUILD)

# `make -s print-VAR` shows a variable (tests/host/registry.sh builds with UNIT_BLOCK_CORE).
print-%:
	@echo $($*)

-include $(KOBJS:.o=.d)
