package sessionfile

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Launch is the typed view of a launch line:
//
//	launch [kitty-unserialize-data=JSON] [OPTION...] [--] [ARGV...]
//
// Fields may be changed directly or through the Set methods, which check their
// arguments. The line is re-serialised by File.Bytes only when the Launch
// differs from what was parsed; words that kept their value keep their
// original spelling. A value that POSIX quoting cannot hold (NUL, control and
// other non-printable characters, invalid UTF-8) cannot be written: the Set
// methods refuse it, and File.Encode reports it.
type Launch struct {
	// Unserialize is the kitty-unserialize-data JSON, nil when the first
	// word is not kitty-unserialize-data=... (kitty only looks at the first).
	Unserialize *UnserializeData
	// Options are the launch options, in order.
	Options []Option
	// Argv is the command after the options; empty for a shell window.
	Argv []string

	endOfOptions bool              // the line has "--" before Argv
	spelling     map[string]string // value -> its first spelling in the line
	prefix       string            // the line up to and including "launch"
	gap          string            // the blanks after "launch" (" " if none)
	suffix       string            // the blanks after the last word
	orig         launchState
}

type launchState struct {
	unserialize *UnserializeData
	options     []Option
	argv        []string
}

// Option is one launch option, as given: "--cwd=/x" is {Name: "--cwd",
// Value: "/x", HasValue: true}; "--cwd /x" is the same with Separate; a flag
// such as "--hold" has no value. kitty also accepts a unique prefix of an
// option name and aliases (--title for --window-title): Name is as written,
// Launch.Option resolves them.
type Option struct {
	Name     string
	Value    string
	HasValue bool
	Separate bool // the value is the next word, not after '='
}

// Words is the option as words on the line.
func (o Option) Words() []string {
	switch {
	case o.Separate:
		return []string{o.Name, o.Value}
	case o.HasValue:
		return []string{o.Name + "=" + o.Value}
	}
	return []string{o.Name}
}

// optSpec is one of kitty's launch options: canonical name, and whether it is
// a flag that takes no value.
type optSpec struct {
	dest string
	flag bool
}

// launchOptions are kitty 0.48.2's launch options by every alias
// (options_spec in kitty/launch.py; --help and --version come from kitty's CLI
// parser). Which options are flags decides whether "--opt word" takes word as
// its value.
var launchOptions = map[string]optSpec{
	"--source-window":               {"source_window", false},
	"--window-title":                {"window_title", false},
	"--title":                       {"window_title", false},
	"--tab-title":                   {"tab_title", false},
	"--type":                        {"type", false},
	"--keep-focus":                  {"keep_focus", true},
	"--dont-take-focus":             {"keep_focus", true},
	"--cwd":                         {"cwd", false},
	"--add-to-session":              {"add_to_session", false},
	"--env":                         {"env", false},
	"--var":                         {"var", false},
	"--hold":                        {"hold", true},
	"--copy-colors":                 {"copy_colors", true},
	"--copy-cmdline":                {"copy_cmdline", true},
	"--copy-env":                    {"copy_env", true},
	"--location":                    {"location", false},
	"--next-to":                     {"next_to", false},
	"--bias":                        {"bias", false},
	"--allow-remote-control":        {"allow_remote_control", true},
	"--remote-control-password":     {"remote_control_password", false},
	"--stdin-source":                {"stdin_source", false},
	"--stdin-add-formatting":        {"stdin_add_formatting", true},
	"--stdin-add-line-wrap-markers": {"stdin_add_line_wrap_markers", true},
	"--marker":                      {"marker", false},
	"--os-window-class":             {"os_window_class", false},
	"--os-window-name":              {"os_window_name", false},
	"--os-window-title":             {"os_window_title", false},
	"--os-window-state":             {"os_window_state", false},
	"--os-window-position":          {"os_window_position", false},
	"--logo":                        {"logo", false},
	"--logo-position":               {"logo_position", false},
	"--logo-alpha":                  {"logo_alpha", false},
	"--color":                       {"color", false},
	"--spacing":                     {"spacing", false},
	"--watcher":                     {"watcher", false},
	"-w":                            {"watcher", false},
	"--os-panel":                    {"os_panel", false},
	"--hold-after-ssh":              {"hold_after_ssh", true},
	"--help":                        {"help", true},
	"-h":                            {"help", true},
	"--version":                     {"version", true},
	"-v":                            {"version", true},
}

// resolveOption finds the option a name means, as kitty's CLI parser does
// (kitty/launcher/cli-parser.h): an exact alias, else the one option that the
// name is a prefix of. A cluster of short flags ("-hw") is decided by its last
// letter, the only one that can take a value. Unknown and ambiguous names,
// which kitty rejects, report false.
func resolveOption(name string) (optSpec, bool) {
	if !strings.HasPrefix(name, "--") && len(name) > 2 {
		name = "-" + name[len(name)-1:]
	}
	if spec, ok := launchOptions[name]; ok {
		return spec, true
	}
	var found optSpec
	n := 0
	for alias, spec := range launchOptions {
		if strings.HasPrefix(alias, name) && (n == 0 || spec.dest != found.dest) {
			found = spec
			n++
		}
	}
	return found, n == 1
}

func takesValue(name string) bool {
	spec, ok := resolveOption(name)
	return ok && !spec.flag
}

func sameOption(a, b string) bool {
	sa, oka := resolveOption(a)
	sb, okb := resolveOption(b)
	if oka && okb {
		return sa.dest == sb.dest
	}
	return a == b
}

// parseLaunch reads the words after "launch" the way kitty's session loader
// and launch's CLI parser do.
func parseLaunch(words []word) (*Launch, error) {
	l := &Launch{spelling: map[string]string{}}
	for _, w := range words {
		if _, ok := l.spelling[w.value]; !ok {
			l.spelling[w.value] = w.raw
		}
	}
	i := 0
	if len(words) > 0 && strings.HasPrefix(words[0].value, unserializeFlag) {
		u, err := parseUnserialize(strings.TrimPrefix(words[0].value, unserializeFlag))
		if err != nil {
			return nil, fmt.Errorf("kitty-unserialize-data: %w", err)
		}
		l.Unserialize = u
		i++
	}
	for ; i < len(words); i++ {
		v := words[i].value
		if v == "--" {
			l.endOfOptions = true
			i++
			break
		}
		if !strings.HasPrefix(v, "-") {
			break
		}
		// Unknown options are taken as flags: kitty refuses them anyway, and
		// kitty's own writer puts every valued option in one --opt=value word.
		name, value, hasValue := strings.Cut(v, "=")
		o := Option{Name: name, Value: value, HasValue: hasValue}
		if !hasValue && takesValue(name) {
			if i+1 == len(words) {
				return nil, fmt.Errorf("launch option %s needs a value", name)
			}
			i++
			o.Value, o.HasValue, o.Separate = words[i].value, true, true
		}
		l.Options = append(l.Options, o)
	}
	for ; i < len(words); i++ {
		l.Argv = append(l.Argv, words[i].value)
	}
	l.orig = launchState{l.Unserialize, slices.Clone(l.Options), slices.Clone(l.Argv)}
	return l, nil
}

// Command is what the window runs: the argv kitty saved, or the list a
// shell runs at startup when there is one.
func (l *Launch) Command() []string {
	if l.Unserialize != nil {
		if c := l.Unserialize.CmdAtShellStartup; c.Set && c.IsList {
			return c.List
		}
	}
	return l.Argv
}

// Modified reports whether the launch line differs from what was parsed.
func (l *Launch) Modified() bool {
	return l.Unserialize != l.orig.unserialize ||
		(l.Unserialize != nil && l.Unserialize.modified()) ||
		!slices.Equal(l.Options, l.orig.options) ||
		!slices.Equal(l.Argv, l.orig.argv)
}

// Option returns the value of the last occurrence of an option ("--cwd",
// "--title"), matching aliases and prefixes as kitty does. A flag has value ""
// (or what followed '=', as in --hold=no).
func (l *Launch) Option(name string) (value string, ok bool) {
	for _, o := range slices.Backward(l.Options) {
		if sameOption(o.Name, name) {
			return o.Value, true
		}
	}
	return "", false
}

// Vars returns the user variables set with --var=K=V (a later one wins, and
// --var=K sets K to "", as in kitty).
func (l *Launch) Vars() map[string]string {
	vars := map[string]string{}
	for _, o := range l.Options {
		if o.HasValue && sameOption(o.Name, "--var") {
			k, v, _ := strings.Cut(o.Value, "=")
			vars[k] = v
		}
	}
	return vars
}

// SetArgv replaces the command. An argv starting with '-' is written after
// "--" so that kitty does not take it for an option.
func (l *Launch) SetArgv(argv []string) error {
	for _, a := range argv {
		if _, err := quote(a); err != nil {
			return err
		}
	}
	l.Argv = slices.Clone(argv)
	return nil
}

// SetOption sets a valued option ("--cwd") to value: every occurrence of
// it, under any alias or prefix kitty accepts, is replaced by one
// --name=value at the end of the options.
func (l *Launch) SetOption(name, value string) error {
	if !takesValue(name) {
		return fmt.Errorf("launch option %s takes no value", name)
	}
	if _, err := quote(value); err != nil {
		return err
	}
	l.Options = slices.DeleteFunc(slices.Clone(l.Options), func(o Option) bool { return sameOption(o.Name, name) })
	l.Options = append(l.Options, Option{Name: name, Value: value, HasValue: true})
	return nil
}

var errNoUnserialize = errors.New("launch line has no kitty-unserialize-data")

// SetCmdAtShellStartupList sets cmd_at_shell_startup to a list (an argv).
func (l *Launch) SetCmdAtShellStartupList(argv []string) error {
	c := CmdAtShellStartup{Set: true, IsList: true, List: slices.Clone(argv)}
	return l.setCmd(c)
}

// SetCmdAtShellStartupString sets cmd_at_shell_startup to a command line,
// which the shell will parse.
func (l *Launch) SetCmdAtShellStartupString(cmd string) error {
	return l.setCmd(CmdAtShellStartup{Set: true, String: cmd})
}

func (l *Launch) setCmd(c CmdAtShellStartup) error {
	if l.Unserialize == nil {
		return errNoUnserialize
	}
	if err := encodeCmd(&strings.Builder{}, c); err != nil {
		return err
	}
	l.Unserialize.CmdAtShellStartup = c
	return nil
}

// values are the values of the words after "launch", as they will be written.
func (l *Launch) values() ([]string, error) {
	var values []string
	if l.Unserialize != nil {
		j, err := l.Unserialize.JSON()
		if err != nil {
			return nil, err
		}
		values = append(values, unserializeFlag+j)
	}
	for _, o := range l.Options {
		if err := checkOption(o); err != nil {
			return nil, err
		}
		values = append(values, o.Words()...)
	}
	if l.endOfOptions || (len(l.Argv) > 0 && strings.HasPrefix(l.Argv[0], "-")) {
		values = append(values, "--")
	}
	values = append(values, l.Argv...)
	if l.Unserialize == nil && len(values) > 0 && strings.HasPrefix(values[0], unserializeFlag) {
		return nil, fmt.Errorf("first word %q would be read as kitty-unserialize-data", values[0])
	}
	return values, nil
}

// encodeWords spells the words after "launch": a value the line had keeps
// its spelling, a new one is quoted.
func (l *Launch) encodeWords() ([]string, error) {
	values, err := l.values()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(values))
	for i, v := range values {
		if s, ok := l.spelling[v]; ok {
			out[i] = s
			continue
		}
		q, err := quote(v)
		if err != nil {
			return nil, err
		}
		out[i] = q
	}
	return out, nil
}

// checkOption refuses an option kitty would read differently when written.
func checkOption(o Option) error {
	switch {
	case !strings.HasPrefix(o.Name, "-") || strings.Contains(o.Name, "="):
		return fmt.Errorf("bad launch option name %q", o.Name)
	case o.Words()[0] == "--":
		return errors.New(`launch option "--" would end the options`)
	case !utf8.ValidString(o.Name):
		return fmt.Errorf("launch option name %q is not valid UTF-8", o.Name)
	case !o.HasValue && takesValue(o.Name):
		return fmt.Errorf("launch option %s needs a value", o.Name)
	case o.Separate && !takesValue(o.Name):
		return fmt.Errorf("launch option %s takes no separate value", o.Name)
	}
	return nil
}
