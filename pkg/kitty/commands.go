package kitty

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// LS returns kitty's windows. kitty sends ls's data as a JSON string that
// holds the JSON document, so it is decoded twice.
func (c *Client) LS(ctx context.Context) ([]OSWindow, error) {
	raw, err := c.LSRaw(ctx)
	if err != nil {
		return nil, err
	}
	out, err := decodeLS(raw)
	if err != nil {
		return nil, fmt.Errorf("kitty @ ls at %s: decode: %w: %v", c.Addr, ErrBadReply, err)
	}
	return out, nil
}

// LSLean is LS for watching kitty: windows' env and cmdline and tabs'
// layouts are left out (zero), which a poll every 2 s does not need and
// which are most of what decoding a large ls builds.
func (c *Client) LSLean(ctx context.Context) ([]OSWindow, error) {
	raw, err := c.LSRaw(ctx)
	if err != nil {
		return nil, err
	}
	out, err := decodeLSLean(raw)
	if err != nil {
		return nil, fmt.Errorf("kitty @ ls at %s: decode: %w: %v", c.Addr, ErrBadReply, err)
	}
	return out, nil
}

// LSRaw returns the ls document, decoded once.
func (c *Client) LSRaw(ctx context.Context) ([]byte, error) {
	raw, err := c.exchange(ctx, "ls", map[string]any{}, false)
	if err != nil {
		return nil, err
	}
	if doc, ok := lsData(raw); ok {
		return doc, nil
	}
	var s *string
	if err := c.decodeReply("ls", raw, &s); err != nil {
		return nil, err
	}
	if s == nil {
		return nil, fmt.Errorf("kitty @ ls at %s: no data: %w", c.Addr, ErrBadReply)
	}
	return []byte(*s), nil
}

// Action runs a kitty action such as
// "save_as_session --save-only --use-foreground-process /abs/path".
// kitty splits the string shell-style. Needs kitty 0.32.2.
func (c *Client) Action(ctx context.Context, action string) error {
	_, err := c.Do(ctx, "action", map[string]any{"action": action}, false)
	return err
}

// GotoSession loads the session file at path into kitty, or goes to its
// windows if they are open already (kitty's goto_session, 0.43 or newer).
// The path is quoted as kitty splits the action's arguments like a shell.
func (c *Client) GotoSession(ctx context.Context, path string) error {
	q, err := syntax.Quote(path, syntax.LangPOSIX)
	if err != nil {
		return err
	}
	if err := c.Action(ctx, "goto_session "+q); err != nil {
		return fmt.Errorf("goto_session %s: %w", path, err)
	}
	return nil
}

// SetUserVars sets (or, for a bare NAME, unsets) user variables on the
// windows that match. vars are "NAME=VALUE". Needs kitty 0.30.
func (c *Client) SetUserVars(ctx context.Context, match string, vars []string) error {
	_, err := c.Do(ctx, "set-user-vars", map[string]any{"match": match, "var": vars}, false)
	return err
}

// LaunchOptions is the subset of `kitty @ launch` that kittymux uses.
type LaunchOptions struct {
	Args       []string // empty: the default shell
	Type       string   // window (default), tab, os-window, overlay, ...
	Match      string   // the tab to open it in
	Cwd        string
	Title      string
	TabTitle   string
	Env        []string // NAME=VALUE
	Vars       []string // NAME=VALUE, kitty 0.30+
	KeepFocus  bool
	Hold       bool
	Location   string
	NoResponse bool
}

// Launch opens a window and returns its id.
func (c *Client) Launch(ctx context.Context, o LaunchOptions) (int, error) {
	p := map[string]any{"args": o.Args}
	set := func(k, v string) {
		if v != "" {
			p[k] = v
		}
	}
	set("type", o.Type)
	set("match", o.Match)
	set("cwd", o.Cwd)
	set("window_title", o.Title)
	set("tab_title", o.TabTitle)
	set("location", o.Location)
	if len(o.Env) > 0 {
		p["env"] = o.Env
	}
	if len(o.Vars) > 0 {
		p["var"] = o.Vars
	}
	if o.KeepFocus {
		p["keep_focus"] = true
	}
	if o.Hold {
		p["hold"] = true
	}
	data, err := c.Do(ctx, "launch", p, o.NoResponse)
	if err != nil || o.NoResponse {
		return 0, err
	}
	// kitty answers with the window id as a string ("3").
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return 0, fmt.Errorf("kitty @ launch: %w: data %.40q", ErrBadReply, data)
	}
	id, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("kitty @ launch: %w: window id %q", ErrBadReply, s)
	}
	return id, nil
}

// SendText types text into the matching windows, as if typed.
func (c *Client) SendText(ctx context.Context, match, text string) error {
	// kitty never answers send-text, whatever the request asks (0.26.5 and
	// later mark it no-response), so waiting for a reply would only time out.
	_, err := c.Do(ctx, "send-text", map[string]any{"match": match, "data": "text:" + text}, true)
	return err
}

// GetText returns a window's text; extent is screen (default), all,
// selection, ... as `kitty @ get-text --extent`.
func (c *Client) GetText(ctx context.Context, match, extent string) (string, error) {
	if extent == "" {
		extent = "screen"
	}
	data, err := c.Do(ctx, "get-text", map[string]any{"match": match, "extent": extent}, false)
	if err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return "", fmt.Errorf("kitty @ get-text: %w", ErrBadReply)
	}
	return s, nil
}

// GetANSIText returns a window's screen and scrollback with its colours
// and styles as escape sequences, as `kitty @ get-text --ansi --extent
// all` (0.26.5 and later). It is what the window showed: any program may
// have printed any of it.
func (c *Client) GetANSIText(ctx context.Context, match string) (string, error) {
	data, err := c.Do(ctx, "get-text", map[string]any{"match": match, "extent": "all", "ansi": true}, false)
	if err != nil {
		return "", err
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return "", fmt.Errorf("kitty @ get-text: %w", ErrBadReply)
	}
	return s, nil
}

// CloseWindow closes the matching windows.
func (c *Client) CloseWindow(ctx context.Context, match string) error {
	_, err := c.Do(ctx, "close-window", map[string]any{"match": match}, false)
	return err
}

// CloseTab closes the matching tabs, without kitty's question.
func (c *Client) CloseTab(ctx context.Context, match string) error {
	_, err := c.Do(ctx, "close-tab", map[string]any{"match": match}, false)
	return err
}
