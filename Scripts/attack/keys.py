#!/usr/bin/env python3
"""Random and adversarial key streams against `secretfield prompt` and
`secretfield-askpass` (release builds), with an oracle of what was typed.

Each session types a stream of segments, one write each: text (ASCII,
accented letters, CJK, emoji, combining marks) and adversarial sequences that
are control sequences by ECMA-48's grammar (long CSI, OSC, DCS, APC, PM, SOS
strings, malformed CSI, C1 controls as UTF-8, kitty keys whose parameters
overflow, invalid UTF-8), then Enter. The password printed must be the text
segments, in order, byte for byte: a byte of a control sequence that came out
as text is an inserted byte. Pastes inside the field's limit count as text;
a paste bomb over the field's limit must be refused whole.

Usage: keys.py [SESSIONS] [SEED]
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from session import Session, describe, tool, BACKTRACE  # noqa: E402

ESC = b"\x1b"
ST = ESC + b"\\"
TEXT = ["a", "Z", "7", " ", "~", "é", "ß", "漢", "字", "😀", "e\u0301", "Ω", "ñ", "!", "%", "{"]


def text_segment(rng):
    return "".join(rng.choice(TEXT) for _ in range(rng.randint(1, 4))).encode()


def printable(rng, count):
    return bytes(rng.randint(0x20, 0x7E) for _ in range(count))


def adversarial(rng):
    kind = rng.randrange(16)
    if kind == 0:  # CSI with very many parameters, past the decoder's limit
        params = b";".join(str(rng.randint(0, 99999)).encode() for _ in range(rng.randint(500, 3000)))
        return ESC + b"[" + params + rng.choice([b"u", b"~", b"A", b"m"])
    if kind == 1:  # long OSC, BEL or ST terminated
        return ESC + b"]" + printable(rng, rng.randint(10, 20000)) + rng.choice([b"\x07", ST])
    if kind == 2:  # long DCS
        return ESC + b"P" + printable(rng, rng.randint(10, 20000)) + ST
    if kind == 3:  # APC, PM, SOS
        return ESC + rng.choice([b"_", b"^", b"X"]) + printable(rng, rng.randint(1, 9000)) + ST
    if kind == 4:  # malformed CSI: a parameter byte after an intermediate byte
        return (ESC + b"[" + rng.choice([b"-", b" ", b"!", b"/"]) + rng.choice([b"1", b"1;2", b"99"])
                + rng.choice([b"u", b"~", b"A"]))
    if kind == 5:  # C1 controls as UTF-8, CSI among them
        # Not the string introducers (DCS, SOS, OSC, PM, APC) nor the single
        # shifts bare: by the grammar what follows them is theirs, not text.
        c1 = bytes([0xC2, rng.choice([n for n in range(0x80, 0xA0) if n not in (0x8E, 0x8F, 0x90, 0x98, 0x9D, 0x9E, 0x9F)])])
        tail = b"1~" if c1 == b"\xc2\x9b" else b""
        return c1 + tail
    if kind == 6:  # kitty key with an overflowing modifier or code point
        big = str(rng.randint(10**15, 10**25)).encode()
        return ESC + b"[" + rng.choice([b"97;" + big, big, b"97:" + big + b";1", b"97;1;" + big]) + b"u"
    if kind == 7:  # invalid UTF-8
        return rng.choice([b"\xff", b"\xc0\x80", b"\xe2\x82", b"\xf8\x88\x80\x80\x80", b"\xed\xa0\x80", b"\x80"])
    if kind == 8:  # SS3 function keys F1 to F4 (no edit)
        return ESC + b"O" + rng.choice([b"P", b"Q", b"R", b"S"])
    if kind == 9:  # CSI with private markers and intermediates
        return ESC + b"[" + rng.choice([b"?", b">", b"=", b"<"]) + b"1;2" + rng.choice([b"$", b"\"", b" "]) + bytes([rng.randint(0x40, 0x7E)])
    if kind == 10:  # focus in/out and mouse reports
        # (Not X10 mouse reports: by the grammar their three bytes after
        # `CSI M` are text, and the prompt never turns mouse reports on.)
        return rng.choice([ESC + b"[I", ESC + b"[O", ESC + b"[<0;10;5M", ESC + b"[<0;10;5m"])
    if kind == 11:  # a CSI interrupted by CAN (not SUB: that is the ^Z key, suspend)
        return ESC + b"[12;\x18"
    if kind == 12:  # a CSI that a new ESC interrupts, then a complete one
        return ESC + b"[1;2" + ESC + b"[B"
    if kind == 13:  # kitty key with text field and association
        return ESC + b"[97;1;" + str(rng.randint(0, 10**12)).encode() + b"u"
    if kind == 14:  # many intermediates
        return ESC + b"[" + b"!" * rng.randint(1, 6000) + b"p"
    return ESC + b"]" + b"52;c;" + printable(rng, 200) + b"\x07"  # OSC 52 clipboard


def stream(rng, limit):
    """Segments to write and the text they must produce."""
    segments, typed = [], b""
    for _ in range(rng.randint(1, 14)):
        choice = rng.random()
        if choice < 0.45 or (segments and segments[-1][1] is None and choice < 0.6):
            text = text_segment(rng)
            if len(typed) + len(text) > limit:
                continue
            segments.append((text, text))
            typed += text
        elif choice < 0.5:
            text = text_segment(rng) * rng.randint(1, 8)
            if len(typed) + len(text) > limit:
                continue
            segments.append((ESC + b"[200~" + text + ESC + b"[201~", text))
            typed += text
        elif choice < 0.52:  # paste bomb: over any field limit
            bomb = b"x" * rng.randint(70000, 300000)
            segments.append((ESC + b"[200~" + bomb + ESC + b"[201~", None))
        else:
            segments.append((adversarial(rng), b""))
    if not typed:
        segments.append((b"q", b"q"))
        typed = b"q"
    return segments, typed


def run(argv, env, prompt, rng):
    segments, typed = stream(rng, 200)
    bombs = any(text is None for _, text in segments)
    session = Session(argv, env=env)
    findings = []
    try:
        if not session.wait_for(prompt):
            return ["no prompt: %s %r" % (describe(session.poll_status()), session.error[-300:])], typed
        for data, text in segments:
            session.type(data)
            session.pump(0.005)
        session.type(b"\r")
        status = session.wait_exit(60)
        if status is None:
            return ["no exit after Enter"], typed
        printed = session.output
        if not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0):
            findings.append("ended by %s, stderr %r" % (describe(status), session.error[-200:]))
        elif printed != typed + b"\n":
            sent = [data[:16] for data, text in segments if not text]
            findings.append("printed %r, typed %r; sequences %r%s" % (
                printed[:120], typed[:120], sent, " (a paste bomb, refused whole)" if bombs else ""))
        if not session.restored():
            findings.append("terminal not restored")
        if BACKTRACE.search(session.error):
            findings.append("stderr looks like a crash: %r" % session.error[:200])
    finally:
        session.close()
    return findings, typed


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 17
    rng = random.Random(seed)
    tools = [
        ([tool("secretfield"), "prompt"], {}, b"Password:"),
        ([tool("secretfield-askpass"), "Passphrase for key:"], {}, b"Passphrase for key:"),
    ]
    sessions = found = 0
    for index in range(count):
        argv, env, prompt = tools[index % 2]
        findings, typed = run(argv, env, prompt, rng)
        sessions += 1
        if findings:
            found += 1
            print("session %d (%s): %s" % (index, os.path.basename(argv[0]), "; ".join(findings)), flush=True)
    print("keys: %d sessions, %d with findings" % (sessions, found))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
