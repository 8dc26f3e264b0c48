#!/usr/bin/env python3
"""Drive a QEMU run over QMP for the USB scenarios, waiting on the serial log.

    usb-qmp.py SOCKET LOG STEP...

Steps, in order:
    wait:REGEX          wait (up to 60 s) for a line of LOG matching REGEX
    type:DEV:TEXT       type TEXT with input-send-event on the keyboards bound
                        to display device DEV (usb-kbd's display=), '-' for
                        QEMU's default; \\n is Enter, ^X is Ctrl-X
    hold:DEV:KEY:MS     hold key KEY (a QEMU qcode) down for MS milliseconds
    last:DEV:TEXT       as type, but QEMU may exit while it types (poweroff)
    qmp:JSON            run one QMP command (device_add, device_del...)
Exits 1 with a message at the first step that fails.
"""
import json, re, socket, sys, time

KEYS = {' ': 'spc', '\n': 'ret', '-': 'minus', '=': 'equal', '.': 'dot', ',': 'comma',
        '/': 'slash', ';': 'semicolon', "'": 'apostrophe', '[': 'bracket_left',
        ']': 'bracket_right', '\\': 'backslash', '`': 'grave_accent'}
SHIFTED = {'_': '-', '+': '=', '>': '.', '<': ',', '?': '/', ':': ';', '"': "'",
           '{': '[', '}': ']', '|': '\\', '~': '`', '!': '1', '@': '2', '#': '3',
           '$': '4', '%': '5', '^': '6', '&': '7', '*': '8', '(': '9', ')': '0'}


class Qmp:
    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX)
        for _ in range(200):
            try:
                self.s.connect(path)
                break
            except OSError:
                time.sleep(0.1)
        self.f = self.s.makefile('rw')
        json.loads(self.f.readline())          # greeting
        self.cmd({'execute': 'qmp_capabilities'})

    def cmd(self, obj):
        self.f.write(json.dumps(obj) + '\n')
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if 'return' in r or 'error' in r:
                return r


def key_events(dev, ch):
    mods, key = [], ch
    if ch.isupper():
        mods, key = ['shift'], ch.lower()
    elif ch in SHIFTED:
        mods, key = ['shift'], SHIFTED[ch]
    key = KEYS.get(key, key)
    return mods, key


def send(q, dev, keys, down):
    ev = [{'type': 'key', 'data': {'down': down, 'key': {'type': 'qcode', 'data': k}}}
          for k in keys]
    args = {'events': ev}
    if dev != '-':
        args['device'] = dev
    r = q.cmd({'execute': 'input-send-event', 'arguments': args})
    if 'error' in r:
        sys.exit('input-send-event on %s: %s' % (dev, r['error'].get('desc')))


def type_text(q, dev, text):
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == '^' and i + 1 < len(text):
            mods, key = ['ctrl'], text[i + 1].lower()
            i += 2
        else:
            mods, key = key_events(dev, ch)
            i += 1
        send(q, dev, mods + [key], True)
        time.sleep(0.03)
        send(q, dev, [key] + mods, False)
        time.sleep(0.03)


def wait(log, regex, limit=60):
    rx = re.compile(regex)
    end = time.time() + limit
    while time.time() < end:
        try:
            with open(log, errors='replace') as f:
                if any(rx.search(l.rstrip('\r\n')) for l in f):
                    return
        except FileNotFoundError:
            pass
        time.sleep(0.1)
    sys.exit('no line matching %r in %s after %d s' % (regex, log, limit))


def main():
    path, log, steps = sys.argv[1], sys.argv[2], sys.argv[3:]
    q = None
    for st in steps:
        kind, _, arg = st.partition(':')
        if kind == 'wait':
            wait(log, arg)
            continue
        q = q or Qmp(path)
        if kind == 'type':
            dev, _, text = arg.partition(':')
            type_text(q, dev, text.replace('\\n', '\n'))
        elif kind == 'last':
            dev, _, text = arg.partition(':')
            try:
                type_text(q, dev, text.replace('\\n', '\n'))
            except OSError:
                pass
        elif kind == 'hold':
            dev, key, ms = arg.split(':')
            send(q, dev, [key], True)
            time.sleep(int(ms) / 1000)
            send(q, dev, [key], False)
        elif kind == 'qmp':
            r = q.cmd(json.loads(arg))
            if 'error' in r:
                sys.exit('%s: %s' % (arg, r['error'].get('desc')))
        else:
            sys.exit('unknown step ' + st)


main()
