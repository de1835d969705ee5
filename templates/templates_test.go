package templates

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// basic are the directives kitty 0.26.5 loads.
var basic = map[string]bool{"new_tab": true, "new_os_window": true, "layout": true, "launch": true, "focus": true,
	"enabled_layouts": true, "cd": true, "title": true}

func TestTemplates(t *testing.T) {
	if diff := cmp.Diff([]string{"agent", "duo", "plain", "review"}, Names()); diff != "" {
		t.Fatalf("templates (-want +got):\n%s", diff)
	}
	for _, name := range Names() {
		b, err := Read(name)
		if err != nil {
			t.Fatal(err)
		}
		filled := strings.NewReplacer("{name}", "work", "{cwd}", "/srv/work", "{agent}", "claude").Replace(string(b))
		f, err := sessionfile.Parse([]byte(filled))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		launches := 0
		for _, l := range f.Lines {
			if l.Directive == "" || strings.HasPrefix(l.Directive, "#") {
				continue
			}
			if !basic[l.Directive] {
				t.Errorf("%s line %d: %s is not a directive kitty 0.26.5 loads", name, l.Num, l.Directive)
			}
			if l.Launch != nil {
				launches++
				if l.Launch.Unserialize != nil {
					t.Errorf("%s line %d: a template has no kitty-unserialize-data", name, l.Num)
				}
			}
		}
		if launches == 0 {
			t.Errorf("%s opens no window", name)
		}
	}
}
