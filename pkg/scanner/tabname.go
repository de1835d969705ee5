package scanner

import "github.com/kittymux/kittymux/pkg/kitty"

// tabName is the name the user gave tab, or "" when nobody named it: kitty
// then shows the title of its active window, which may be another window's
// (a shell's directory, another agent's thread name), so recover would
// name an agent's tab after a neighbour (seen with real claude: three
// conversations recovered into tabs named after the quit agent's
// directory). In a tab of several windows, a name equal to one of its
// windows' titles is taken for that. A tab of one window keeps its title
// (recover's tabs are named by `new_tab` and their windows' `--title` alike;
// recovery leaves out a title that is the agent's name).
func tabName(tab *kitty.Tab) string {
	if tab == nil {
		return ""
	}
	if len(tab.Windows) < 2 {
		return tab.Title
	}
	for _, w := range tab.Windows {
		if w.Title == tab.Title {
			return ""
		}
	}
	return tab.Title
}
