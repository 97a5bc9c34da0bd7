#!/usr/bin/env python3
"""Real faults in the release tools, made from outside with ptrace (root).

The release builds have no fault hook, so the faults are made by a tracer
while the prompt is up: it attaches, and changes the main thread's state so
that its next instruction faults for real: `rip = 0` (SIGSEGV), `rsp` off
every mapping (SIGSEGV that only an alternate signal stack can handle, as
after a stack overflow), a `ud2` (SIGILL), an `int3` (SIGTRAP) or an `idiv`
by zero (SIGFPE) written over the next instruction. Before it lets the thread
go, it fills the general and vector registers with a marker, as if they held
secret bytes; it stays attached to look at the alternate signal stack twice:
when the handler is entered (the kernel's frame holds the marker: the
control) and when the handler raises the signal again after restoring the
terminal (the frame must be wiped). Then it lets the process die and checks
the terminal, the death's signal, stderr and the core file.

Usage: faults.py [ROUNDS]
"""

import ctypes
import os
import shutil
import signal
import struct
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
from session import describe, BACKTRACE  # noqa: E402
import tools  # noqa: E402

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
PEEKTEXT, POKETEXT, CONT, SINGLESTEP, GETREGS, SETREGS, GETFPREGS, SETFPREGS, ATTACH = 1, 4, 7, 9, 12, 13, 14, 15, 16
REGS = ["r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8", "rax", "rcx", "rdx", "rsi", "rdi",
        "orig_rax", "rip", "cs", "eflags", "rsp", "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs"]
GPR_MARKER = b"SFGPRMK1"
XMM_MARKER = b"SFXMMSECRETBYTES"
KINDS = {"rip-zero": signal.SIGSEGV, "rsp-off-stack": signal.SIGSEGV, "ud2": signal.SIGILL,
         "int3": signal.SIGTRAP, "idiv-zero": signal.SIGFPE}


def ptrace(request, pid, addr=0, data=0):
    result = libc.ptrace(request, pid, ctypes.c_void_p(addr), ctypes.c_void_p(data))
    if result == -1 and ctypes.get_errno() and request not in (PEEKTEXT,):
        raise OSError(ctypes.get_errno(), "ptrace %d" % request)
    return result


def get_regs(pid):
    buffer = ctypes.create_string_buffer(27 * 8)
    ptrace(GETREGS, pid, 0, ctypes.addressof(buffer))
    return dict(zip(REGS, struct.unpack("27Q", buffer.raw)))


def set_regs(pid, regs):
    buffer = ctypes.create_string_buffer(struct.pack("27Q", *[regs[name] for name in REGS]))
    ptrace(SETREGS, pid, 0, ctypes.addressof(buffer))


def fill_vector_registers(pid):
    buffer = ctypes.create_string_buffer(512)
    ptrace(GETFPREGS, pid, 0, ctypes.addressof(buffer))
    raw = bytearray(buffer.raw)
    raw[160:160 + 256] = XMM_MARKER * 16
    buffer = ctypes.create_string_buffer(bytes(raw))
    ptrace(SETFPREGS, pid, 0, ctypes.addressof(buffer))


def poke(pid, address, code):
    word = ptrace(PEEKTEXT, pid, address) & 0xFFFFFFFFFFFFFFFF
    old = struct.pack("<Q", word)
    new = code + old[len(code):]
    ptrace(POKETEXT, pid, address, struct.unpack("<Q", new)[0])
    return word


def mapping_of(pid, address):
    with open("/proc/%d/maps" % pid) as maps:
        for line in maps:
            start, end = (int(value, 16) for value in line.split()[0].split("-"))
            if start <= address < end:
                return start, end
    return None


def read(pid, span):
    with open("/proc/%d/mem" % pid, "rb", 0) as memory:
        memory.seek(span[0])
        return memory.read(span[1] - span[0])


def wait(pid):
    _, status = os.waitpid(pid, 0x40000000)  # __WALL
    return status


def attack(name, kind):
    directory = tempfile.mkdtemp(prefix="sf-fault-")
    session = tools.start(name, cwd=directory, core_dumps=True)
    findings, notes = [], {}
    try:
        if session is None:
            return ["no prompt"], notes
        session.type(b"ab")
        session.pump(0.1)
        if not session.is_raw():
            return ["control failed: not raw"], notes
        pid = session.pid
        ptrace(ATTACH, pid)
        status = wait(pid)
        regs = get_regs(pid)
        original = None
        regs["orig_rax"] = 0xFFFFFFFFFFFFFFFF  # no system call restart
        if regs["rax"] & (1 << 63):
            regs["rax"] = 0xFFFFFFFFFFFFFFFC  # poll interrupted (EINTR)
        for name_ in ("rbx", "rbp", "r12", "r13", "r14", "r15"):
            regs[name_] = struct.unpack("<Q", GPR_MARKER)[0]
        if kind == "rip-zero":
            regs["rip"] = 0
        elif kind == "rsp-off-stack":
            regs["rsp"] = 0x10000
        elif kind == "ud2":
            original = poke(pid, regs["rip"], b"\x0f\x0b")
        elif kind == "int3":
            original = poke(pid, regs["rip"], b"\xcc")
        else:
            original = poke(pid, regs["rip"], b"\x31\xc9\xf7\xf9")  # xor ecx, ecx; idiv ecx
        set_regs(pid, regs)
        fill_vector_registers(pid)
        ptrace(CONT, pid, 0, 0)
        status = wait(pid)
        if not os.WIFSTOPPED(status) or os.WSTOPSIG(status) != KINDS[kind]:
            findings.append("first stop: %s" % describe(status))
            return findings, notes
        # The fault happened once; put the code back, so that the handler's
        # own calls (write, which the thread may have been in) do not hit it.
        if original is not None:
            ptrace(POKETEXT, pid, regs["rip"], original)
        # Into the handler: the kernel builds its frame on the alternate stack.
        ptrace(SINGLESTEP, pid, 0, KINDS[kind])
        status = wait(pid)
        entry = get_regs(pid)
        span = mapping_of(pid, entry["rsp"])
        before = read(pid, span) if span else b""
        notes["alternate stack"] = "%d KiB" % ((span[1] - span[0]) // 1024) if span else "none"
        notes["entry xmm markers"] = before.count(XMM_MARKER)
        notes["entry gpr markers"] = before.count(GPR_MARKER)
        # The handler restores the terminal, wipes, and raises the signal again.
        ptrace(CONT, pid, 0, 0)
        status = wait(pid)
        if os.WIFSTOPPED(status) and os.WSTOPSIG(status) == KINDS[kind]:
            after = read(pid, span) if span else b""
            notes["raise xmm markers"] = after.count(XMM_MARKER)
            notes["raise gpr markers"] = after.count(GPR_MARKER)
            if after.count(XMM_MARKER):
                findings.append("vector registers left on the alternate stack")
            ptrace(CONT, pid, 0, KINDS[kind])
        else:
            findings.append("second stop: %s" % describe(status))
        status = session.wait_exit(30)
        if status is None or not (os.WIFSIGNALED(status) and os.WTERMSIG(status) == KINDS[kind]):
            findings.append("ended by %s" % describe(status))
        elif os.WCOREDUMP(status):
            findings.append("core dumped")
        if not session.restored():
            findings.append("terminal not restored: %s" % session.modes)
        if session.error or BACKTRACE.search(session.error):
            findings.append("stderr %r" % session.error[:200])
        if os.listdir(directory):
            findings.append("files left: %s" % os.listdir(directory))
        if not notes.get("entry xmm markers"):
            findings.append("control failed: no marker in the kernel's frame")
    finally:
        if session is not None:
            session.close()
        shutil.rmtree(directory, ignore_errors=True)
    return findings, notes


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    cases = found = 0
    gpr_left = 0
    for name in ("prompt", "askpass", "pinentry"):
        for kind in KINDS:
            for _ in range(rounds):
                cases += 1
                findings, notes = attack(name, kind)
                gpr_left += notes.get("raise gpr markers", 0)
                print("%s %s: %s %s" % (name, kind, "; ".join(findings) or "ok", notes), flush=True)
                found += bool(findings)
    print("faults: %d cases, %d with findings; general-register markers left in the handler's own frames: %d"
          % (cases, found, gpr_left))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
