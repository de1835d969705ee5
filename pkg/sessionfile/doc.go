// Package sessionfile reads and writes kitty session files (the format of
// kitty's save_as_session, and of `ls` with output_format "session") without losing a
// byte, so that kittymux can rewrite the launch lines of agent windows and
// leave everything else exactly as kitty wrote it.
//
// # Model
//
//	f, err := sessionfile.Parse(data)  // *File; errors are *LineError ("line 7: ...")
//	for _, w := range f.Windows() {     // every launch line, with its cd and tab
//		w.Line.Launch.SetArgv(...)       // or SetCmdAtShellStartupList, or edit fields
//	}
//	out := f.Bytes()                    // only modified launch lines are re-serialised
//
// A File is a list of Lines. Each Line keeps its exact bytes (Raw) and its line
// ending (EOL: "\n", "\r\n", or "" for a last line without one), so an
// unmodified file is written back byte for byte, comments, blank lines and
// directives this package does not know included (kitty rejects unknown
// directives; we keep them anyway). Directive and Rest are read-only views of
// Raw, split the way kitty splits a line.
//
// A launch line also gets a typed Launch: the kitty-unserialize-data JSON
// (UnserializeData: the old window id, which set_layout_state refers to, and
// cmd_at_shell_startup as a string or a list), the launch options (Option) and
// the command (Argv). Bytes re-serialises a launch line only when its Launch
// differs from what was parsed; then words whose value did not change keep
// their original spelling and new words are quoted with mvdan.cc/sh's POSIX
// quoting, which kitty's lexer reads back to the same string.
//
// # What kitty does that we follow
//
//   - kitty (kitty/session.py) strips each line with Python's str.strip, skips
//     empty lines and lines starting with '#', and splits off the directive at
//     the first run of whitespace. Python's str.splitlines also breaks lines
//     at \r, \v, \f, \x1c-\x1e, U+0085, U+2028 and U+2029; a line holding one
//     of those inside it is refused, since kitty would read it as two lines.
//   - Launch lines must be valid UTF-8 without NUL bytes (kitty decodes the
//     file as UTF-8; its C option parser would cut a word at a NUL).
//   - A launch line's rest is split by kitty's own lexer (kitty/launcher/shlex.h)
//     with ANSI-C quoting off: POSIX single and double quotes and backslash,
//     except that inside double quotes a backslash escapes any character, and
//     '$', '`', ';', '#', '|', '&', '<', '>' are plain text. We split with
//     mvdan.cc/sh and refuse any line where a shell and kitty could disagree.
//   - Launch options follow kitty's CLI parser: "--opt=value" or "--opt value",
//     unique prefixes of option names, "--" ends the options, and the first
//     word not starting with '-' starts the command.
//
// Values are returned as written: kitty expands $VAR in launch options, in cd
// and in new_tab titles, and resolves a relative cd against the session file's
// directory, when it loads the file; this package does neither.
package sessionfile
