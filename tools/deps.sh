#!/bin/sh
# Install, or with --check only look for, the Debian packages the build,
# the tests and `make run` need.  As root it runs apt-get; otherwise it
# prints the one command to run.
PKGS="gcc-i686-linux-gnu binutils-i686-linux-gnu gcc libc6-dev make qemu-system-x86 qemu-utils \
grub-pc-bin grub-common xorriso mtools dosfstools e2fsprogs fdisk gdisk python3 clang libclang-rt-14-dev \
gnuplot-nox grub-efi-amd64-bin grub-efi-ia32-bin ovmf ovmf-ia32 console-setup-linux"
TOOLS="i686-linux-gnu-gcc qemu-system-x86_64 qemu-img grub-mkrescue xorriso mformat \
mke2fs e2fsck debugfs mkfs.fat fsck.fat mcopy sfdisk sgdisk python3 clang gnuplot cc"

missing=""
for t in $TOOLS; do
	command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
[ -d /usr/lib/grub/i386-pc ] || missing="$missing grub-pc-bin"
# The one image boots BIOS and 64/32-bit UEFI PCs; OVMF boots it in the
# tests; the framebuffer console's glyphs come from a Terminus PSF font.
[ -d /usr/lib/grub/x86_64-efi ] || missing="$missing grub-efi-amd64-bin"
[ -d /usr/lib/grub/i386-efi ] || missing="$missing grub-efi-ia32-bin"
[ -f /usr/share/OVMF/OVMF_CODE_4M.fd ] || missing="$missing ovmf"
[ -f /usr/share/OVMF/OVMF32_CODE_4M.secboot.fd ] || missing="$missing ovmf-ia32"
[ -f /usr/share/consolefonts/Lat15-Terminus16.psf.gz ] || missing="$missing console-setup-linux"
# libFuzzer (make fuzz) is only a Recommends of clang, which --no-install-recommends skips
ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 || \
	missing="$missing libclang-rt-14-dev"
if [ "$1" = "--check" ]; then
	[ -z "$missing" ] && exit 0
	echo "deps: missing:$missing" >&2
	exit 1
fi
[ -z "$missing" ] && { echo "deps: everything is installed"; exit 0; }
if [ "$(id -u)" != 0 ]; then
	echo "deps: run as root:  apt-get update && apt-get install -y $PKGS" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq && apt-get install -y -qq --no-install-recommends $PKGS >/dev/null || {
	echo "deps: apt-get install failed" >&2
	exit 1
}
echo "deps: installed"
