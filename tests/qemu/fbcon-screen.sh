#!/usr/bin/env bash
# The framebuffer console, read back from the screen: QEMU screendumps
# (QMP) compared with the text rendered on the host from the same font
# (tests/qemu/fbcon-check.py) -- the boot banner and the shell's welcome
# line must be on the screen, pixel-exact -- at 32 bpp under OVMF (UEFI
# GOP, 1920x1080) and at 16 and 24 bpp under SeaBIOS (VBE through GRUB's
# gfxpayload).  A pitch wider than the visible width is not something
# QEMU's VGA gives through GRUB or OVMF; host test fbcon/pitch covers it.
# The GRUB menu's disk report (init=report) leaves its verdict on the
# screen above the waiting prompt.
# Also: a whole log ring drawn at 1920x1080 in well under a second.
. "$(dirname "$0")/lib.bash"
. "$(dirname "$0")/uefi-lib.bash"

prompt='Type help for the list of commands'
sock=$logdir/fbcon-qmp.sock

# check_screen NAME: the screendump shows the banner and the welcome line.
check_screen() {
	local font
	font=$(grep -aoE 'font [A-Za-z0-9-]+' "$out.raw" | head -1 | cut -d' ' -f2)
	[ -n "$font" ] || { echo "no fbcon line in the log" >"$shotlog"; return 1; }
	sleep 1		# let the deferred redraw land
	python3 tests/qemu/fbcon-check.py "$sock" "$shot" "/usr/share/consolefonts/$font.psf.gz" \
		"${screen_texts[@]}" >"$shotlog" 2>&1
}
screen_texts=('15:storage stack kernel booting' "0:$prompt.")
on_match=check_screen

for spec in "uefi q35 1920x1080x32 32" "bios pc 1024x768x16 16" "bios pc 1280x720x24 24"; do
	read -r fw m mode bpp <<<"$spec"
	name=fbcon-$fw-$bpp
	shot=$logdir/$name.ppm shotlog=$logdir/$name.check
	rm -f "$sock"
	boot_until $name "$prompt" 120 --iso --mb2 --vga --firmware $fw --machine $m \
		--gfx $mode --qmp "$sock"
	expect_rc "fbcon/$fw/$bpp/booted" 0
	expect_out "fbcon/$fw/$bpp/mode" "fbcon: ${mode%x*}, $bpp bpp"
	if [ "$match_rc" = 0 ]; then
		ok "fbcon/$fw/$bpp/banner-on-screen"
	else
		notok "fbcon/$fw/$bpp/banner-on-screen" "$(tail -2 "$shotlog" | tr '\n' ' ')"
	fi
done

if grep -q 'init=report' boot/grub.cfg; then ok "report/menu-entry"; else notok "report/menu-entry" "no init=report entry in boot/grub.cfg"; fi
img=$logdir/fbcon-report.img
truncate -s 64M "$img"
screen_texts=('0:report: VERDICT: PASS, 7 steps, 2 disks read' "0:$prompt.")
name=fbcon-report shot=$logdir/fbcon-report.ppm shotlog=$logdir/fbcon-report.check
rm -f "$sock"
boot_until $name "$prompt" 120 --iso --mb2 --vga --machine q35 --gfx 1024x768x32 \
	--disk "$img,bus=ahci,ro" --cmdline 'init=report' --qmp "$sock"
expect_rc "report/waits-at-prompt" 0
expect_out "report/verdict" '^report: VERDICT: PASS, 7 steps, 2 disks read$'
if [ "$match_rc" = 0 ]; then
	ok "report/verdict-on-screen"
else
	notok "report/verdict-on-screen" "$(tail -2 "$shotlog" | tr '\n' ' ')"
fi
rm -f "$sock" "$img"

boot fbcon-speed --iso --mb2 --vga --gfx 1920x1080x32 --machine pc --timeout 120 \
	--cmdline 'selftest=kernel/fbcon/*'
expect_rc "fbcon/full-ring-speed" 0
expect_out "fbcon/full-ring-speed/measured" '^fbcon: a full log ring \(65536 bytes, 1024 lines\) drawn at 1920x1080 in [0-9]+ ms$'
