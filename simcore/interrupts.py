"""Ctrl-C that ends a run within seconds, also while numba code runs.

Python handles SIGINT only between bytecodes: while a numba kernel plays a
chunk of games (or a user strategy loops forever inside one), a Ctrl-C waits
until the kernel returns, which may be never. :func:`install` puts a native
handler (a numba ``cfunc``) in front of Python's:

* it tells the interpreter about the interrupt exactly as Python's own
  handler would (``PyErr_SetInterrupt``): whenever Python gets control it
  raises KeyboardInterrupt, ``finally`` blocks run, and the command line
  prints one line and exits 130;
* it arms an alarm of :data:`GRACE_SECONDS`: if Python has not got control by
  then (the kernel is still running), the alarm's native handler writes
  :data:`INTERRUPTED_LINE` to stderr and ends the process with exit code 130.
  A second Ctrl-C within the grace period does so at once.

What was written before stays: files are complete or absent (the study
writes chunks under temporary names), only the chunk being played is lost.
The handlers reach ``PyErr_SetInterrupt``, ``alarm``, ``write`` and
``_exit`` by symbol name, so their machine code stays in numba's on-disk cache.
"""
from __future__ import annotations

import ctypes
import signal
import threading

from llvmlite import ir
from numba import cfunc, types
from numba.core import cgutils
from numba.extending import intrinsic

GRACE_SECONDS = 2
EXIT_CODE = 130
INTERRUPTED_LINE = "dreamscape: interrupted"
_LINE = (INTERRUPTED_LINE + "\n").encode()

_I32 = ir.IntType(32)


@intrinsic
def _set_interrupt(typingctx):
    """``PyErr_SetInterrupt()``: async-signal-safe, as Python's own SIGINT handler does it."""

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), []), "PyErr_SetInterrupt")
        builder.call(fn, [])
        return context.get_dummy_value()

    return types.void(), codegen


@intrinsic
def _alarm(typingctx, seconds):
    """``alarm(seconds)``: the seconds left of the previous alarm (0: none was set)."""

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(_I32, [_I32]), "alarm")
        left = builder.call(fn, [builder.trunc(args[0], _I32)])
        return builder.zext(left, ir.IntType(64))

    return types.int64(types.int64), codegen


@intrinsic
def _write_line_and_exit(typingctx):
    """``write(2, INTERRUPTED_LINE)`` then ``_exit(EXIT_CODE)`` (both async-signal-safe)."""

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        char_p = ir.IntType(8).as_pointer()
        write = cgutils.get_or_insert_function(builder.module, ir.FunctionType(i64, [_I32, char_p, i64]), "write")
        exit_ = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.VoidType(), [_I32]), "_exit")
        text = context.insert_const_bytes(builder.module, _LINE)
        builder.call(write, [ir.Constant(_I32, 2), text, ir.Constant(i64, len(_LINE))])
        builder.call(exit_, [ir.Constant(_I32, EXIT_CODE)])
        return context.get_dummy_value()

    return types.void(), codegen


@cfunc(types.void(types.int32), cache=True, _nrt=False)
def _on_native_sigint(signum):
    if _alarm(GRACE_SECONDS) != 0:  # a second Ctrl-C within the grace period: stop now
        _write_line_and_exit()
    _set_interrupt()


@cfunc(types.void(types.int32), cache=True, _nrt=False)
def _on_native_alarm(signum):
    _write_line_and_exit()


_STATE = {"received": False, "installed": False}


def _on_python_sigint(signum, frame):
    _STATE["received"] = True
    raise KeyboardInterrupt


def install() -> bool:
    """Install the handlers (once, main thread of a POSIX process only); True if they are in place.

    Call it from a command-line entry point, not from library code: it takes
    over SIGINT and SIGALRM for the whole process.
    """
    if _STATE["installed"]:
        return True
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "SIGALRM"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        set_handler = libc.signal
        set_handler.restype = ctypes.c_void_p
        set_handler.argtypes = [ctypes.c_int, ctypes.c_void_p]
    except (OSError, AttributeError):  # pragma: no cover - no C library to ask
        return False
    # Python's handler first: PyErr_SetInterrupt runs it, and it records that the interrupt was real.
    signal.signal(signal.SIGINT, _on_python_sigint)
    for signum, handler in ((signal.SIGALRM, _on_native_alarm), (signal.SIGINT, _on_native_sigint)):
        set_handler(int(signum), handler.address)
        # glibc's signal() restarts interrupted system calls; Python must see EINTR to notice the interrupt.
        signal.siginterrupt(signum, True)
    _STATE["installed"] = True
    return True


def received() -> bool:
    """Whether the user pressed Ctrl-C since :func:`install` (a KeyboardInterrupt raised by code is not that)."""
    return bool(_STATE["received"])


def cancel_deadline() -> None:
    """Cancel the grace-period alarm: Python got control and ends the process itself."""
    if _STATE["installed"]:
        signal.alarm(0)
