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


class Window:
    def __init__(self, wid, text):
        self.id, self.text = wid, text

    def as_text(self, as_ansi=False, add_history=False):
        assert as_ansi and add_history, 'not what get-text --ansi --extent all gives'
        return self.text


class Boss:
    """What the watcher uses of kitty's Boss: save_as_session as the action runs it, os_window_map,
    window_id_map."""

    def __init__(self, wm_class='kitty', fail=False, texts=None):
        self.calls = []
        self.os_window_map = {1: TabManager(wm_class)}
        self.window_id_map = {i: Window(i, t) for i, t in (texts or {}).items()}
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

    def test_screen_history_texts(self):
        """With screen history on, each window's text is written beside the raw save for the publish: its
        last lines within twice a window's bound, within twice a save's; off, nothing is."""
        config = os.path.join(self.dir, 'config.json')
        self.settings(config=config)
        long = ''.join('\x1b[32mline %04d\x1b[m\n' % i for i in range(400))  # 8,000 bytes
        texts = {1: 'make: ok \u2713\n', 2: long, 3: long, 4: long}
        for env, conf, on in (('', None, False), ('', {'screen_history': False}, False),
                              ('', {'screen_history': 'yes'}, False), ('0', {'screen_history': True}, False),
                              ('1', None, True),
                              ('', {'screen_history': True, 'screen_history_window_kb': 1, 'screen_history_save_mb': 0},
                               True)):
            with self.subTest(env=env, conf=conf):
                if hasattr(sys, '_kittymux_watcher_done'):
                    delattr(sys, '_kittymux_watcher_done')
                if os.path.exists(self.log):
                    os.remove(self.log)
                if conf is None:
                    if os.path.exists(config):
                        os.remove(config)
                else:
                    with open(config, 'w') as f:
                        json.dump(conf, f)
                os.environ['KITTYMUX_SCREEN_HISTORY'] = env
                self.addCleanup(os.environ.pop, 'KITTYMUX_SCREEN_HISTORY', None)
                boss = Boss(texts=texts)
                self.load()['on_quit'](boss, None, {'confirmed': True})
                argv = self.runs(1)[0]['argv']
                dirs = [x for x in os.listdir(self.sessions) if x.endswith('.text')]
                if not on:
                    self.assertNotIn('--texts', argv)
                    self.assertEqual(dirs, [])
                    continue
                path = argv[argv.index('--texts') + 1]
                self.assertEqual(path, boss.calls[0][-1][:-len('.kitty-session')] + '.text')
                self.assertEqual(os.stat(path).st_mode & 0o777, 0o700)
                got = {}
                for name in os.listdir(path):
                    self.assertEqual(os.stat(os.path.join(path, name)).st_mode & 0o777, 0o600)
                    with open(os.path.join(path, name), 'rb') as f:
                        got[name] = f.read()
                self.assertEqual(got['1.txt'], 'make: ok \u2713\n'.encode('utf-8'))
                if env == '1':  # the default bounds: each whole
                    self.assertEqual(sorted(got), ['1.txt', '2.txt', '3.txt', '4.txt'])
                    self.assertEqual(got['4.txt'], long.encode())
                    shutil.rmtree(path)
                    continue
                # 1 KiB a window, twice that written, from a line's start; the save's 0 is out of range: 8 MiB.
                self.assertEqual(sorted(got), ['1.txt', '2.txt', '3.txt', '4.txt'])
                for name in ('2.txt', '3.txt', '4.txt'):
                    self.assertLessEqual(len(got[name]), 2048)
                    self.assertGreater(len(got[name]), 2000)
                    self.assertTrue(got[name].startswith(b'\x1b[32mline '), got[name][:20])
                    self.assertTrue(got[name].endswith(b'line 0399\x1b[m\n'))
                shutil.rmtree(path)

    def test_screen_history_save_bound(self):
        """Twice what a save keeps is written in all, window after window."""
        config = os.path.join(self.dir, 'config.json')
        self.settings(config=config)
        with open(config, 'w') as f:
            json.dump({'screen_history': True, 'screen_history_window_kb': 16384, 'screen_history_save_mb': 1}, f)
        big = 'x' * 100 + '\n'
        boss = Boss(texts={i: big * 8000 for i in range(1, 6)})  # 808,000 bytes each
        self.load()['on_quit'](boss, None, {'confirmed': True})
        argv = self.runs(1)[0]['argv']
        path = argv[argv.index('--texts') + 1]
        sizes = {n: os.path.getsize(os.path.join(path, n)) for n in os.listdir(path)}
        self.assertEqual(sorted(sizes), ['1.txt', '2.txt', '3.txt'])
        self.assertLessEqual(sum(sizes.values()), 2 << 20)
        self.assertEqual(sizes['1.txt'], 808000)

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
