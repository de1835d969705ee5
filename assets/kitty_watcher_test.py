"""Tests of kitty_watcher.py, loaded as kitty loads it (runpy.run_path), with a fake boss and a fake kittymux
that records how it was started. Run by assets/watcher_test.go: python3 -m unittest kitty_watcher_test."""

import json
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

FAKE_KITTYMUX = '''#!%s
import json, os, sys
with open(os.environ['FAKE_LOG'], 'a') as f:
    f.write(json.dumps({'argv': sys.argv[1:], 'sid': os.getsid(0), 'pid': os.getpid(), 'cwd': os.getcwd(),
        'stdin_tty': os.isatty(0), 'env': {k: v for k, v in os.environ.items() if k.startswith(('KITTY', 'XDG_'))}}) + '\\n')
'''


class TabManager:
    def __init__(self, wm_class):
        self.wm_class = wm_class


class Boss:
    """What the watcher uses of kitty's Boss: save_as_session as the action runs it, os_window_map."""

    def __init__(self, wm_class='kitty', fail=False):
        self.calls = []
        self.os_window_map = {1: TabManager(wm_class)}
        self.fail = fail

    def save_as_session(self, *args):
        self.calls.append(list(args))
        if self.fail:
            raise RuntimeError('kitty failed')
        with open(args[-1], 'w') as f:
            f.write('new_tab\nlaunch\n')

    def list_os_windows(self):
        yield {'id': 1, 'tabs': [{'id': 1, 'windows': [{'id': 1, 'cwd': '/tmp', 'cmdline': ('/bin/sh',)}]}]}


class WatcherTest(unittest.TestCase):

    def setUp(self):
        if hasattr(sys, '_kittymux_watcher_done'):
            delattr(sys, '_kittymux_watcher_done')
        self.dir = tempfile.mkdtemp(prefix='kmw')
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.sessions = os.path.join(self.dir, 'state', 'kittymux', 'sessions')
        os.makedirs(self.sessions)
        self.log = os.path.join(self.dir, 'log')
        os.environ['FAKE_LOG'] = self.log
        os.environ['KITTY_LISTEN_ON'] = 'unix:/tmp/the-quitting-kitty'
        os.environ['KITTY_PID'] = '1'
        self.addCleanup(os.environ.pop, 'KITTY_LISTEN_ON', None)
        self.addCleanup(os.environ.pop, 'KITTY_PID', None)
        self.kittymux = os.path.join(self.dir, 'kittymux')
        with open(self.kittymux, 'w') as f:
            f.write(FAKE_KITTYMUX % sys.executable)
        os.chmod(self.kittymux, 0o755)
        self.watcher = os.path.join(self.dir, 'conf', 'kitty_watcher.py')
        os.makedirs(os.path.dirname(self.watcher))
        shutil.copy(os.path.join(HERE, 'kitty_watcher.py'), self.watcher)
        self.settings(start_scanner=False)

    def settings(self, **kw):
        s = {'kittymux': self.kittymux, 'sessions_dir': self.sessions, 'quit_name': 'autosave-quit',
             'start_scanner': False, 'env': {'XDG_STATE_HOME': os.path.join(self.dir, 'state')}}
        s.update(kw)
        with open(os.path.join(os.path.dirname(self.watcher), 'kitty_watcher.json'), 'w') as f:
            json.dump(s, f)

    def load(self):
        return runpy.run_path(self.watcher, run_name='__kitty_watcher__')

    def runs(self, n, timeout=10):
        """The fake kittymux's runs, once there are n (detached: they end on their own time)."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with open(self.log) as f:
                    runs = [json.loads(x) for x in f]
            except FileNotFoundError:
                runs = []
            if len(runs) >= n or time.monotonic() > deadline:
                return runs
            time.sleep(0.02)

    def raws(self):
        return [x for x in os.listdir(self.sessions) if x.startswith('.raw-quit-')]

    def test_only_on_quit_is_a_hook(self):
        m = self.load()
        hooks = sorted(k for k, v in m.items() if k.startswith('on_') and callable(v))
        self.assertEqual(hooks, ['on_quit'])

    def test_unconfirmed_quit_saves_nothing(self):
        m = self.load()
        boss = Boss()
        m['on_quit'](boss, None, {'confirmed': False})
        self.assertEqual(boss.calls, [])
        self.assertEqual(self.raws(), [])
        self.assertEqual(self.runs(0), [])

    def test_confirmed_quit_saves_in_process_and_publishes_detached(self):
        m = self.load()
        boss = Boss()
        m['on_quit'](boss, None, {'confirmed': False})
        m['on_quit'](boss, None, {'confirmed': True})
        self.assertEqual(len(boss.calls), 1)
        args = boss.calls[0]
        self.assertEqual(args[:2], ['--save-only', '--use-foreground-process'])
        raw = args[2]
        self.assertEqual(os.path.dirname(raw), self.sessions)
        self.assertRegex(os.path.basename(raw), r'^\.raw-quit-\d+-\d+\.kitty-session$')
        runs = self.runs(1)
        self.assertEqual(len(runs), 1)
        run = runs[0]
        ls = raw[:-len('.kitty-session')] + '.ls.json'
        self.assertEqual(run['argv'][:3] + run['argv'][4:], ['sessions', 'publish', '--name', '--kitty-pid', str(os.getpid()),
                                                             '--remove-raw', '--ls', ls, raw])
        # What kitty listed when it saved, for kittymux to read the save against: only the user's.
        with open(ls) as f:
            self.assertEqual(json.load(f)[0]['tabs'][0]['windows'][0]['cmdline'], ['/bin/sh'])
        self.assertEqual(os.stat(ls).st_mode & 0o777, 0o600)
        # Named after this kitty (its pid) and the time, as kittymux names autosaves.
        self.assertRegex(run['argv'][3], r'^autosave-quit-%d-\d{8}T\d{6}\.\d{3}Z$' % os.getpid())
        self.assertNotEqual(run['sid'], os.getsid(0), 'the publish is not in a session of its own')
        self.assertEqual(run['sid'], run['pid'])
        self.assertFalse(run['stdin_tty'])
        self.assertEqual(run['cwd'], '/')
        self.assertNotIn('KITTY_LISTEN_ON', run['env'])
        self.assertNotIn('KITTY_PID', run['env'])
        self.assertEqual(run['env']['XDG_STATE_HOME'], os.path.join(self.dir, 'state'))
        # A second confirmed call (a second path to the same file) saves nothing more.
        self.load()['on_quit'](boss, None, {'confirmed': True})
        self.assertEqual(len(boss.calls), 1)

    def test_never_raises(self):
        m = self.load()
        m['on_quit'](Boss(fail=True), None, {'confirmed': True})
        self.assertEqual(self.runs(0), [])
        if hasattr(sys, '_kittymux_watcher_done'):
            delattr(sys, '_kittymux_watcher_done')
        os.remove(os.path.join(os.path.dirname(self.watcher), 'kitty_watcher.json'))
        m['on_quit'](Boss(), None, {'confirmed': True})
        m['on_quit'](None, None, None)
        self.assertEqual(self.runs(0), [])

    def test_utility_kitty_saves_nothing(self):
        m = self.load()
        for cls in ('kitty-panel', 'kitty-quick-access'):
            boss = Boss(wm_class=cls)
            m['on_quit'](boss, None, {'confirmed': True})
            self.assertEqual(boss.calls, [])

    def test_scanner_started_once_when_asked(self):
        self.settings(start_scanner=True)
        self.load()
        self.load()  # kitty running the module again (a reload, a second path)
        self.runs(1)
        time.sleep(0.2)  # a second process started by mistake has had time to say so
        runs = self.runs(1)
        self.assertEqual([r['argv'] for r in runs], [['scanner', 'run']])
        self.assertNotIn('KITTY_LISTEN_ON', runs[0]['env'])

    def test_scanner_not_started_where_systemd_does(self):
        self.load()
        self.settings(start_scanner=True)
        runpy.run_path(self.watcher, run_name='not_kitty')  # imported, not loaded by kitty
        time.sleep(0.2)  # a process started by mistake has had time to say so
        self.assertEqual(self.runs(0), [])

    def test_settings_not_a_file_refused_without_blocking(self):
        """kitty's start waits for the watcher: a FIFO (no writer: a plain open blocks) or a device where
        kitty_watcher.json goes is refused at once, on load and on quit. Run in a child, which a block
        cannot keep."""
        path = os.path.join(os.path.dirname(self.watcher), 'kitty_watcher.json')
        code = ('import runpy, sys\n'
                'm = runpy.run_path(sys.argv[1], run_name="__kitty_watcher__")\n'
                'm["on_quit"](None, None, {"confirmed": True})\n'
                'print("returned")\n')
        for name, make in (('fifo', os.mkfifo), ('device', lambda p: os.symlink('/dev/zero', p))):
            with self.subTest(name):
                os.remove(path)
                make(path)
                try:
                    p = subprocess.run([sys.executable, '-c', code, self.watcher], capture_output=True, text=True,
                                       timeout=20)
                except subprocess.TimeoutExpired:
                    self.fail('the watcher still blocks after 20 s on a %s' % (name,))
                self.assertEqual(p.stdout.strip(), 'returned', p.stderr)
                self.assertEqual(p.stderr.count('not a regular file'), 2, p.stderr)
                self.assertEqual(self.runs(0), [])

    def test_settings_too_large_refused(self):
        self.settings(start_scanner=True, padding='x' * (64 * 1024))
        self.load()
        time.sleep(0.2)  # a process started by mistake has had time to say so
        self.assertEqual(self.runs(0), [])


if __name__ == '__main__':
    unittest.main()
