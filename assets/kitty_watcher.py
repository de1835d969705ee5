# kittymux's watcher for kitty, installed by `kittymux setup` (`kittymux setup --undo` removes it).
#
# kitty runs this module in its own process when it loads its configuration. It does two things:
#   - when kitty loads it, and kitty_watcher.json beside it says so (no systemd user manager), it starts
#     `kittymux scanner run`, which exits at once if a scanner already runs;
#   - on a confirmed quit (on_quit, kitty >= 0.46.2) it saves kitty's layout with kitty's own
#     save_as_session, in this process (the socket is closing), and starts `kittymux sessions publish`
#     on that raw file, detached, so the publish finishes after kitty is gone. The save is named
#     autosave-quit-<kitty's pid>-<UTC time>: the newest save of this kitty, ended by a quit. With screen
#     history on (config.json, KITTYMUX_SCREEN_HISTORY) it also writes what each window shows, for the publish
#     to keep the plain windows' (kittymux filters and bounds it).
# Nothing else is done on any event, and no handler ever raises into kitty.

import json
import os
import stat
import subprocess
import sys
import time

SETTINGS = 'kitty_watcher.json'
# A flag on the sys module, not in this module: kitty keeps one module per path, but the same file
# reached by two paths, or a kitty that runs the module again, must still start one scanner and save once.
_ONCE = '_kittymux_watcher_done'
# The address of the kitty that is quitting (or of another kitty this one was started from): a process
# started here outlives it and must not take it for its own.
_DROP_ENV = ('KITTY_LISTEN_ON', 'KITTY_PID', 'KITTY_WINDOW_ID', 'KITTY_PUBLIC_KEY')
# Panels and the quick-access terminal are separate kitty processes that read kitty.conf too; kittymux
# leaves them out everywhere.
_UTILITY_CLASSES = ('kitty-panel', 'kitty-quick-access')

try:
    _HERE = os.path.dirname(os.path.abspath(__file__))
except Exception:
    _HERE = ''


def _log(msg):
    try:
        sys.stderr.write('kittymux watcher: %s\n' % (msg,))
        sys.stderr.flush()
    except Exception:
        pass


def _once(what):
    done = getattr(sys, _ONCE, None)
    if not isinstance(done, set):
        done = set()
        setattr(sys, _ONCE, done)
    if what in done:
        return False
    done.add(what)
    return True


# kitty_watcher.json is a few hundred bytes; anything larger is not kittymux's.
_MAX_SETTINGS = 64 * 1024


def _read_regular(path, cap):
    """The bytes of the regular file at path, at most cap. It runs inside kitty, whose start waits for it: a
    FIFO there (no writer: a plain open blocks) or a device is refused, found without blocking."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, 'O_CLOEXEC', 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ValueError('%s is not a regular file' % (path,))
        if st.st_size > cap:
            raise ValueError('%s is larger than %d bytes' % (path, cap))
        chunks, size = [], 0
        while True:
            b = os.read(fd, 65536)
            if not b:
                break
            size += len(b)
            if size > cap:
                raise ValueError('%s is larger than %d bytes' % (path, cap))
            chunks.append(b)
        return b''.join(chunks)
    finally:
        os.close(fd)


def _settings():
    s = json.loads(_read_regular(os.path.join(_HERE, SETTINGS), _MAX_SETTINGS).decode('utf-8'))
    if not isinstance(s, dict) or not s.get('kittymux'):
        raise ValueError('%s: no kittymux binary named' % (SETTINGS,))
    return s


def _spawn(settings, args):
    env = {k: v for k, v in os.environ.items() if k not in _DROP_ENV}
    env.update({str(k): str(v) for k, v in (settings.get('env') or {}).items()})
    # A new session, no terminal, stdio on /dev/null: the process does not die with kitty, and kitty's
    # own child reaping collects it if it ends first.
    subprocess.Popen(
        [settings['kittymux']] + list(args), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True, cwd='/', env=env)


def _start_scanner():
    try:
        s = _settings()
        if s.get('start_scanner') and _once('scanner'):
            _spawn(s, ['scanner', 'run'])
    except Exception as err:
        _log('starting the scanner failed: %s' % (err,))


def _quit_name(base):
    # kitty's pid and the time as kittymux names its autosaves (pkg/autosave: Name, QuitName), so the
    # quit save is known as this kitty's newest, ended at a confirmed quit.
    ns = time.time_ns()
    stamp = time.strftime('%Y%m%dT%H%M%S', time.gmtime(ns // 1000000000)) + '.%03dZ' % ((ns // 1000000) % 1000)
    return '%s-%d-%s' % (base, os.getpid(), stamp)


# config.json is kittymux's settings, read as kittymux reads it (at most 1 MiB).
_MAX_CONFIG = 1 << 20
# The bounds of what a window and a save keep (pkg/screenhist), in their units: key, default, largest, unit.
_HISTORY_BOUNDS = (('screen_history_window_kb', 256, 16 << 10, 1 << 10), ('screen_history_save_mb', 8, 256, 1 << 20))


def _write_texts(s, boss, path):
    """With screen history on, what each window shows, as `get-text --ansi --extent all` gives it (the socket is
    closing: kitty's own call), in path/ID.txt (0600). Each is cut to its last lines within twice the bytes a
    window keeps, all within twice what a save keeps: kittymux filters and bounds what it keeps of them."""
    env = os.environ.get('KITTYMUX_SCREEN_HISTORY', '')
    try:
        c = json.loads(_read_regular(s['config'], _MAX_CONFIG).decode('utf-8'))
    except Exception:
        c = {}
    if not isinstance(c, dict):
        c = {}
    if not (env in ('1', 'true') if env else c.get('screen_history') is True):
        return

    def bound(key, default, top, unit):
        v = c.get(key)
        return 2 * unit * (v if type(v) is int and 1 <= v <= top else default)

    window, total = (bound(*b) for b in _HISTORY_BOUNDS)
    os.mkdir(path, 0o700)
    for w in list(boss.window_id_map.values()):
        cap = min(window, total)
        if cap <= 0:
            break
        b = w.as_text(as_ansi=True, add_history=True).encode('utf-8', 'replace')
        if len(b) > cap:
            b = b[-cap:]
            b = b[b.find(b'\n') + 1:]
        if not b:
            continue
        fd = os.open(os.path.join(path, '%d.txt' % w.id), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, 'wb') as f:
            f.write(b)
        total -= len(b)


def _is_utility(boss):
    for tm in list(getattr(boss, 'os_window_map', {}).values()):
        if getattr(tm, 'wm_class', '') in _UTILITY_CLASSES:
            return True
    return False


def on_quit(boss, window, data):
    try:
        # Before the confirmation dialog kitty calls this with confirmed False; a cancelled quit never
        # calls it again. Only the confirmed call saves.
        if not data.get('confirmed') or _is_utility(boss) or not _once('quit'):
            return
        s = _settings()
        sessions = s['sessions_dir']
        raw = os.path.join(sessions, '.raw-quit-%d-%d.kitty-session' % (os.getpid(), time.time_ns()))
        # kitty's own saver, as `save_as_session --save-only --use-foreground-process PATH` does it.
        boss.save_as_session('--save-only', '--use-foreground-process', raw)
        if not os.path.isfile(raw):
            _log('kitty did not write %s' % (raw,))
            return
        name = _quit_name(s.get('quit_name') or 'autosave-quit')
        # --kitty-pid: this process is kitty; the journal's records of its windows say what ran there.
        args = ['sessions', 'publish', '--name', name, '--kitty-pid', str(os.getpid()), '--remove-raw']
        # What kitty lists now, as its ls does: kittymux reads each line of the save against it
        # (kitty writes a directory a window reported raw, newlines included).
        ls = raw[:-len('.kitty-session')] + '.ls.json'
        try:
            data = json.dumps(list(boss.list_os_windows()), default=str)
            fd = os.open(ls, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, 'w') as f:
                f.write(data)
            args += ['--ls', ls]
        except Exception as err:
            _log('listing the windows on quit failed: %s' % (err,))
        texts = raw[:-len('.kitty-session')] + '.text'
        try:
            _write_texts(s, boss, texts)
        except Exception as err:
            _log('keeping the windows\' text on quit failed: %s' % (err,))
        if os.path.isdir(texts):
            # The publish keeps what it may of them, and removes them.
            args += ['--texts', texts]
        _spawn(s, args + [raw])
    except Exception as err:
        _log('saving the session on quit failed: %s' % (err,))


if __name__ == '__kitty_watcher__':
    _start_scanner()
