#!/usr/bin/env python3
"""Drive one QEMU run of tests/qemu/usb-hotplug.sh: type shell commands on
the serial line, and unplug and plug a usb-storage device over QMP, each
step when the kernel's output says the one before it is done.

usage: usb-hotplug.py LOG QMP_SOCKET FIFO STICK_IMAGE -- RUN-QEMU ARGS...
The serial output goes to LOG; exits 0 when every step was reached, else
1 with the step that timed out on stderr.
"""
import json, os, re, socket, subprocess, sys, threading, time

log, sock_path, fifo, stick = sys.argv[1:5]
cmd = sys.argv[sys.argv.index("--") + 1:]
lines, lock = [], threading.Lock()


def reader(p, f):
    for raw in p.stdout:
        line = raw.decode(errors="replace").rstrip("\r\n")
        with lock:
            lines.append(line)
        f.write(line + "\n")
        f.flush()


def wait_for(regex, after, secs, what):
    """Index of the first line past after matching regex; exit 1 on timeout."""
    end = time.monotonic() + secs
    while time.monotonic() < end:
        with lock:
            for i in range(after, len(lines)):
                if re.search(regex, lines[i]):
                    return i + 1
        if p.poll() is not None and not reading.is_alive():
            print("usb-hotplug: QEMU ended (status %d) before '%s' (%s)" % (p.returncode, regex, what),
                  file=sys.stderr)
            sys.exit(1)
        time.sleep(0.05)
    print("usb-hotplug: no '%s' (%s) in %ss" % (regex, what, secs), file=sys.stderr)
    p.kill()
    sys.exit(1)


class QMP:
    def __init__(self, path):
        end = time.monotonic() + 60
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX)
                self.s.connect(path)
                break
            except OSError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.1)
        self.f = self.s.makefile("rw")
        json.loads(self.f.readline())          # greeting
        self.run("qmp_capabilities")

    def run(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "return" in r:
                return r["return"]
            if "error" in r:
                raise RuntimeError("%s: %s" % (name, r["error"]))


p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
out = open(log, "w")
reading = threading.Thread(target=reader, args=(p, out), daemon=True)
reading.start()
tty = os.open(fifo, os.O_WRONLY)


def type_line(s):
    os.write(tty, (s + "\n").encode())


at = wait_for(r"Type help for the list of commands", 0, 240, "shell prompt")
qmp = QMP(sock_path)
# Stress the stick; at its 200th I/O the shell echoes the marker, and the
# stick is pulled while the stress goes on.
type_line("stress sdb secs=10 span=16 seed=9 at=200 during='echo UNPLUG-NOW'")
at = wait_for(r"^UNPLUG-NOW", at, 240, "stress under way")
qmp.run("device_del", id="stick0")
at = wait_for(r"STRESS sdb ", at, 240, "stress ends")
type_line("lsblk")
at = wait_for(r"^NAME ", at, 60, "lsblk header")
type_line("stress sda span=4 seed=5")
at = wait_for(r"STRESS sda ", at, 240, "SATA stress ends")
# Plug it back: a new backend for the same image, a new device.
qmp.run("blockdev-add", **{"driver": "raw", "node-name": "stick1",
                           "file": {"driver": "file", "filename": stick}})
qmp.run("device_add", driver="usb-storage", bus="xhci.0", drive="stick1", id="stick1")
at = wait_for(r": sdb: ", at, 120, "stick attached again")
type_line("lsblk sdb")
at = wait_for(r"^sdb ", at, 60, "lsblk sdb")
type_line("stress sdb span=4 off=8 seed=11")
at = wait_for(r"STRESS sdb ", at, 240, "stress on the replugged stick")
type_line("exit")
try:
    rc = p.wait(timeout=60)
except subprocess.TimeoutExpired:
    p.kill()
    rc = 124
sys.exit(0 if rc == 0 else 1)
