"""Warm start: a spare process, loaded in advance, runs the next command.

Every new ``dreamscape`` process pays about 1-1.5 s before it plays a game:
numba's import and target set-up (which imports scipy through numba's BLAS
check) and loading the cached engine kernels. That is paid again by every
small run. So a command that finds a *spare* hands itself over instead of
loading anything: it sends the spare its arguments, environment and working
folder, and its own stdin, stdout and stderr (the file descriptors themselves,
``SCM_RIGHTS``), then waits for the exit code. The spare runs the command as
if it had been started in the user's terminal: it writes to the same
terminal or pipe, ``isatty`` answers the same, Ctrl-C and ``kill`` reach it
(the waiting command forwards SIGINT, SIGTERM, SIGHUP and SIGQUIT), and the
exit code is the command's.

Why a spare used once, not a server that forks a child per command: the
engine's parallel kernels run on numba's OpenMP threading layer, and a
process that has started GNU OpenMP cannot fork safely ("fork() called from
a process already using GNU OpenMP"). A spare is started as a new program,
loads everything, waits, runs one command and exits; the command it runs
starts the next spare, so a designer's next command finds one ready.

Rules that keep it safe and invisible:

* One spare per *key*: the Python executable, the project folder, the
  size and modification time of every source and data file of the project,
  the environment variables that act at import time (``NUMBA_*``,
  ``PYTHON*``, ``OMP_*``, ``DREAMSCAPE_*``), and the process's resource
  limits (``ulimit``) and user and group ids. A spare loaded from other code or
  settings is never used: an edit of the engine gets a new spare, and a
  command run under other limits or dropped privileges finds no spare of its
  key, so it runs in its own process (and leaves a spare with its limits).
  The spare checks the limits the command sends once more and declines a
  command whose limits differ from its own.
* The socket lives in a folder only this user can enter (mode 0700, owned by
  the user, not a symbolic link), else warm start stays off.
* A command hands over only after the spare has answered and it has said go;
  any failure before that (no spare, a spare taken by another command at the
  same moment, a spare that just timed out) runs the command in its own
  process, as without warm start. A command never runs twice.
* A spare waits at most :data:`IDLE_SECONDS` (``DREAMSCAPE_SERVER_IDLE``),
  then exits. ``DREAMSCAPE_SERVER=off`` turns warm start off (the test suite
  does, except its own tests of it).
* What the command writes to stderr reaches the user as it would from a
  process of its own: an unexpected error prints its traceback and exits 1,
  never a silent exit.
* If the waiting command itself is killed with SIGKILL, the spare sees its
  connection close and interrupts the command (SIGINT), as Ctrl-C would.

Only the standard library is used here: the waiting command must stay light.
"""
from __future__ import annotations

import fcntl
import hashlib
import json
import os
import resource
import signal
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

IDLE_SECONDS = 900.0
REPLY_TIMEOUT = 5.0
OFF_VALUES = {"0", "off", "no", "false"}
FORWARDED_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)
SOURCE_FOLDERS = ("simcore", "strategies", "analyses", "reports")
# Bots' shipped values (.npz) are loaded at registration: a value file added or retrained after a spare
# started must start another spare, or the spare would play the old value.
SOURCE_SUFFIXES = (".py", ".toml", ".json", ".npz")
IMPORT_TIME_ENV = ("NUMBA_", "PYTHON", "OMP_", "DREAMSCAPE_", "LANG", "LC_")
NOT_IN_KEY = {"DREAMSCAPE_SERVER", "DREAMSCAPE_SERVER_IDLE", "DREAMSCAPE_SERVER_DIR"}
GO = b"g"
FIRST_NOTICE = ("dreamscape: a spare process now waits with the engine loaded, so the next command starts at once "
                "(it exits after {} idle minutes; DREAMSCAPE_SERVER=off turns this off)")


def enabled(env: dict | None = None) -> bool:
    """Warm start is on unless ``DREAMSCAPE_SERVER`` says off, and the platform can pass file descriptors."""
    env = os.environ if env is None else env
    if env.get("DREAMSCAPE_SERVER", "").strip().lower() in OFF_VALUES:
        return False
    return os.name == "posix" and hasattr(socket, "send_fds") and hasattr(socket, "AF_UNIX")


def idle_seconds() -> float:
    try:
        value = float(os.environ.get("DREAMSCAPE_SERVER_IDLE", IDLE_SECONDS))
    except ValueError:
        return IDLE_SECONDS
    return value if value > 0 else IDLE_SECONDS


def socket_folder() -> Path | None:
    """The user's private folder for spare sockets, created 0700; None if it is not safe to use."""
    given = os.environ.get("DREAMSCAPE_SERVER_DIR")
    if given:
        folder = Path(given)
    elif os.environ.get("XDG_RUNTIME_DIR"):
        folder = Path(os.environ["XDG_RUNTIME_DIR"]) / "dreamscape"
    else:
        folder = Path("/tmp") / f"dreamscape-{os.getuid()}"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(folder)
    except OSError:
        return None
    # another user's folder, a link or a folder others can enter could hand our terminal to someone else
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        return None
    return folder


def process_limits() -> dict[str, list[int]]:
    """This process's resource limits (``ulimit``: soft and hard) and user and group ids.

    A command run under other limits or dropped privileges must not run in a
    spare started without them (a spare's limits are those of the command
    that started it).
    """
    limits = {}
    for name in sorted(n for n in dir(resource) if n.startswith("RLIMIT_")):
        try:
            limits[name] = list(resource.getrlimit(getattr(resource, name)))
        except (OSError, ValueError):
            continue
    ids = [os.getuid(), os.geteuid(), os.getgid(), os.getegid()]
    limits["ids"] = ids + sorted(os.getgroups())
    return limits


def source_key(root: Path, env: dict | None = None, limits: dict | None = None) -> str:
    """What a spare must share with a command to run it: interpreter, code on disk, import-time settings, limits."""
    env = os.environ if env is None else env
    limits = process_limits() if limits is None else limits
    h = hashlib.sha256()
    h.update(f"{sys.executable}\0{sys.version}\0{root}\0".encode())
    h.update(json.dumps(limits, sort_keys=True).encode())
    files = [root / "cli.py"]
    for name in SOURCE_FOLDERS:
        for folder, dirs, names in os.walk(root / name):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            files += [Path(folder) / n for n in sorted(names) if n.endswith(SOURCE_SUFFIXES)]
    for path in files:
        try:
            info = os.stat(path)
        except OSError:
            continue
        h.update(f"{path}\0{info.st_size}\0{info.st_mtime_ns}\0".encode())
    for name in sorted(env):
        if name.startswith(IMPORT_TIME_ENV) and name not in NOT_IN_KEY:
            h.update(f"{name}={env[name]}\0".encode())
    return h.hexdigest()[:24]


def socket_path(root: Path) -> Path | None:
    folder = socket_folder()
    return None if folder is None else folder / f"{source_key(root)}.sock"


# ----------------------------------------------------------------------------- the waiting command

def _recv_exact(conn: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        part = conn.recv(n - len(data))
        if not part:
            raise ConnectionError("spare closed the connection")
        data += part
    return data


def hand_over(root: Path, argv: Sequence[str]) -> int | None:
    """Run ``argv`` in a waiting spare and return its exit code; None when no spare took it (run it here).

    Nothing has started when None is returned: the spare runs a command only
    after this side says go, which it does last.
    """
    path = socket_path(root)
    if path is None or not path.exists():
        return None
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.settimeout(REPLY_TIMEOUT)
    try:
        conn.connect(str(path))
        umask = os.umask(0o022)
        os.umask(umask)
        header = json.dumps({"argv": list(argv), "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask,
                             "limits": process_limits()}).encode()
        socket.send_fds(conn, [len(header).to_bytes(8, "big")], [0, 1, 2])
        conn.sendall(header)
        pid = int.from_bytes(_recv_exact(conn, 8), "big")
    except (OSError, ValueError, ConnectionError):
        conn.close()
        return None
    forwarded: list[int] = []

    def forward(signum, frame):  # the spare runs the command: it gets the signal meant for it
        forwarded.append(signum)
        try:
            os.kill(pid, signum)
        except OSError:
            pass

    previous = {s: signal.signal(s, forward) for s in FORWARDED_SIGNALS}
    try:
        conn.sendall(GO)
    except OSError:  # the spare is gone before it started the command
        for s, h in previous.items():
            signal.signal(s, h)
        conn.close()
        return None
    conn.settimeout(None)
    try:
        while True:
            try:
                code = int.from_bytes(_recv_exact(conn, 4), "big", signed=True)
                break
            except InterruptedError:
                continue
            except (OSError, ConnectionError):
                code = None
                break
    finally:
        for s, h in previous.items():
            signal.signal(s, h)
        conn.close()
    if code is None:  # the spare ended without an exit code: killed by a signal
        if forwarded:  # ... most likely the one we passed on: end the same way
            os.kill(os.getpid(), forwarded[-1])
        print("dreamscape: error: the spare process running this command ended without an exit code", file=sys.stderr)
        return 1
    return code


# ----------------------------------------------------------------------------- the spare

OWN_FILE_PREFIXES = ("/dev/fd/", "/proc/self/fd/", "/dev/stdin", "/proc/self/")


def names_own_files(argv: Sequence[str]) -> bool:
    """An argument names a file only this process can open: its own descriptors (``--cards <(cat cards.toml)``).

    A spare is another process: ``/dev/fd/63`` there is not the caller's pipe ("no such file"), so such a
    command runs in its own process.
    """
    return any(prefix in arg for arg in argv for prefix in OWN_FILE_PREFIXES)


def console(root: Path, app: Callable[[], None], entry: str, wanted: bool) -> None:
    """A console command: handed to a waiting spare when ``wanted`` and warm start is on, else run here.

    After a command run here, a spare loads while the user reads its answer, for the next command.
    """
    if not wanted or not enabled() or names_own_files(sys.argv[1:]):
        app()
        return
    code = hand_over(root, sys.argv)
    if code is not None:
        sys.exit(code)
    try:
        app()
    finally:
        start_spare(root, entry)


def start_spare(root: Path, entry: str) -> None:
    """Start a spare in the background (a new program, its own session, no terminal); returns at once.

    ``entry`` is the Python code the spare runs, e.g. ``"import cli; cli.serve_spare()"``,
    run in ``root`` so that ``import cli`` finds the project's own module.
    """
    folder = socket_folder()
    if folder is None:
        return
    first = not (folder / "notice-shown").exists()
    try:
        subprocess.Popen(
            [sys.executable, "-c", entry], cwd=root, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL, start_new_session=True, close_fds=True,
        )
    except OSError:
        return
    if first and sys.stderr.isatty():  # said once, to a person: scripts and logs reading stderr never get it
        try:
            (folder / "notice-shown").touch()
        except OSError:
            pass
        print(FIRST_NOTICE.format(round(idle_seconds() / 60)), file=sys.stderr)


def serve_one(root: Path, warm: Callable[[], None], run: Callable[[list[str]], int], next_entry: str) -> None:
    """Be the spare: load (``warm``), wait for one command, run it with ``run(argv)``, exit with its code.

    Returns (without running anything) when another spare of the same key is
    loading or waiting, or when no command came within the idle time.
    """
    path = socket_path(root)
    if path is None:
        return
    # "a": opening must not truncate the pid another spare of this key wrote (``server --stop`` reads it);
    # only the spare that holds the lock rewrites it
    lock_file = open(path.with_suffix(".lock"), "a")
    try:
        fcntl.flock(lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:  # another spare of this key is loading or waiting
        lock_file.close()
        return
    lock_file.truncate(0)
    lock_file.write(str(os.getpid()))
    lock_file.flush()
    warm()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    temporary = path.with_name(f".{os.getpid()}.sock")
    try:
        temporary.unlink(missing_ok=True)
        listener.bind(str(temporary))
        listener.listen(8)
        os.replace(temporary, path)  # ready: commands see the socket only once it listens
    except OSError:
        lock_file.close()
        return
    listener.settimeout(idle_seconds())
    try:
        conn, _ = listener.accept()
    except (OSError, TimeoutError):
        path.unlink(missing_ok=True)
        lock_file.close()
        return
    # one command only: leave the place to the next spare before doing anything else
    path.unlink(missing_ok=True)
    listener.close()
    lock_file.close()
    conn.settimeout(REPLY_TIMEOUT)
    try:
        msg, fds, _flags, _addr = socket.recv_fds(conn, 8, 3)
        if len(fds) != 3 or len(msg) != 8:
            return
        request = json.loads(_recv_exact(conn, int.from_bytes(msg, "big")))
        if request.get("limits") != process_limits():  # closing before the pid: the command runs in its own process
            return
        conn.sendall(os.getpid().to_bytes(8, "big"))
        if _recv_exact(conn, 1) != GO:
            return
    except (OSError, ValueError, ConnectionError):
        return
    conn.settimeout(None)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    try:  # stdout was opened on /dev/null at start: a terminal wants its lines as they come
        sys.stdout.reconfigure(line_buffering=os.isatty(1))
    except (AttributeError, ValueError, OSError):
        pass
    # the spare started in the project folder with '' first on sys.path: after the chdir that would be the
    # user's folder, where a folder named like one of ours (reports/, analyses/) must not shadow it
    sys.path[:] = [str(root) if entry in ("", ".") else entry for entry in sys.path]
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    os.umask(int(request.get("umask", 0o022)))
    import tempfile

    tempfile.tempdir = None  # chosen again from the command's TMPDIR
    sys.argv = list(request["argv"])
    if enabled():  # the command's settings decide whether a next spare waits for the one after
        start_spare(root, next_entry)
    finished = threading.Event()
    threading.Thread(target=_interrupt_when_gone, args=(conn, finished), daemon=True).start()
    code = 1
    try:
        code = run(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):  # sys.exit("text") prints the text, as Python does
            print(exc.code, file=sys.stderr)
    except KeyboardInterrupt:  # Ctrl-C outside the command's own handling: what the command line says for it
        print("dreamscape: interrupted", file=sys.stderr)
        code = 130
    except BaseException:  # noqa: BLE001 - what Python prints for an uncaught error, before os._exit skips it
        import traceback

        traceback.print_exc()
        code = 1
    finally:
        finished.set()  # from here on a closed connection is the normal end, not a killed command
        try:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            conn.sendall(int(code).to_bytes(4, "big", signed=True))
        except BaseException:  # noqa: BLE001 - nothing may stop the exit with the command's code
            pass
        os._exit(code)


def _interrupt_when_gone(conn: socket.socket, finished: threading.Event) -> None:
    """The waiting command was killed outright (its socket closed): interrupt the run as Ctrl-C would."""
    try:
        while conn.recv(1):
            pass
    except OSError:
        pass
    if not finished.is_set():
        os.kill(os.getpid(), signal.SIGINT)


# ----------------------------------------------------------------------------- status and stop

def spares() -> list[dict]:
    """The spares of this user (any key): pid, whether it waits (socket ready) or is still loading, its key."""
    folder = socket_folder()
    if folder is None:
        return []
    found = []
    for lock in sorted(folder.glob("*.lock")):
        with open(lock, "a+") as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # held: a spare is alive
                f.seek(0)
                text = f.read().strip()
                found.append({"pid": int(text) if text.isdigit() else None, "key": lock.stem,
                              "ready": lock.with_suffix(".sock").exists()})
                continue
            fcntl.flock(f, fcntl.LOCK_UN)
    return found


def stop_spares() -> int:
    """End every spare of this user (SIGTERM) and remove their sockets; returns how many were running."""
    found = spares()
    for s in found:
        if s["pid"]:
            try:
                os.kill(s["pid"], signal.SIGTERM)
            except OSError:
                pass
    folder = socket_folder()
    if folder is not None:
        for sock in folder.glob("*.sock"):
            sock.unlink(missing_ok=True)
    return len(found)
