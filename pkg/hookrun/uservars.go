package hookrun

import "github.com/kittymux/kittymux/pkg/kitty"

// canSetUserVars reports whether the kitty the hook runs in has
// set-user-vars (0.30): its version is read from the installation kitty
// names in its windows' KITTY_INSTALLATION_DIR, a file read and no
// request. An older kitty is not asked (it would only answer that the
// command is unknown, on every event); one whose version cannot be read
// is asked.
func canSetUserVars(getenv func(string) string) bool {
	v, ok := kitty.VersionOfInstall(getenv("KITTY_INSTALLATION_DIR"))
	return !ok || v.AtLeast(kitty.VersionUserVars)
}
