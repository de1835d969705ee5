// Package docs holds the checks of the repository's documentation: README.md
// and docs/*.md. Its tests fail on a broken relative link or anchor, a
// `kittymux ...` command the CLI does not have, and a README that is too long
// or whose first screen lacks the install command or "After a crash".
package docs
