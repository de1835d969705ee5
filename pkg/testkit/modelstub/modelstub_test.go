package modelstub

import (
	"bufio"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func post(t *testing.T, url, body string) (string, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		b.WriteString(sc.Text() + "\n")
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s\n%s", url, resp.Status, b.String())
	}
	return resp.Header.Get("Content-Type"), b.String()
}

// sseText joins the text deltas of a stream: the reply a client shows.
func sseText(t *testing.T, stream string, field ...string) (string, []string) {
	t.Helper()
	var text strings.Builder
	var events []string
	for line := range strings.Lines(stream) {
		line = strings.TrimSpace(line)
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			events = append(events, name)
		}
		data, ok := strings.CutPrefix(line, "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var v any
		if err := json.Unmarshal([]byte(data), &v); err != nil {
			t.Fatalf("data is not JSON: %v: %s", err, data)
		}
		for _, f := range field {
			m, ok := v.(map[string]any)
			if !ok {
				v = nil
				break
			}
			if a, ok := m[f].([]any); ok && len(a) > 0 {
				v = a[0]
			} else {
				v = m[f]
			}
		}
		if s, ok := v.(string); ok {
			text.WriteString(s)
		}
	}
	return text.String(), events
}

func TestAnthropic(t *testing.T) {
	s := Start(t)
	s.Reply = func(r Request) string { return "the word was " + r.Texts[0] }
	body := `{"model":"claude-x","stream":true,"system":[{"type":"text","text":"be brief"}],
	  "messages":[{"role":"user","content":[{"type":"text","text":"ORCHID"}]},
	              {"role":"assistant","content":"ok"},
	              {"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"done"}]},{"type":"text","text":"again?"}]}]}`
	ct, stream := post(t, s.URL+"/v1/messages?beta=true", body)
	text, events := sseText(t, stream, "delta", "text")
	if ct != "text/event-stream" || text != "the word was ORCHID" {
		t.Errorf("streamed: %s %q\n%s", ct, text, stream)
	}
	want := []string{"message_start", "content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if diff := cmp.Diff(want, compact(events)); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	_, plain := post(t, s.URL+"/v1/messages", `{"model":"claude-x","messages":[{"role":"user","content":"TULIP"}]}`)
	var msg struct {
		Content []struct{ Type, Text string }
		Stop    string `json:"stop_reason"`
	}
	if err := json.Unmarshal([]byte(plain), &msg); err != nil || len(msg.Content) != 1 || msg.Content[0].Text != "the word was TULIP" || msg.Stop != "end_turn" {
		t.Errorf("not streamed: %v %s", err, plain)
	}
	_, count := post(t, s.URL+"/v1/messages/count_tokens?beta=true", `{"model":"claude-x","messages":[{"role":"user","content":"x"}]}`)
	if !strings.Contains(count, `"input_tokens"`) {
		t.Errorf("count_tokens: %s", count)
	}

	reqs := s.Requests()
	if len(reqs) != 3 || reqs[0].API != Anthropic || reqs[0].Model != "claude-x" || !reqs[0].Stream ||
		reqs[0].System != "be brief" || reqs[2].API != CountTokens {
		t.Fatalf("requests: %+v", reqs)
	}
	if diff := cmp.Diff([]string{"ORCHID", "ok", "done\nagain?"}, reqs[0].Texts); diff != "" {
		t.Errorf("texts (-want +got):\n%s", diff)
	}
	if got := s.Carrying("ORCHID"); len(got) != 1 || got[0].N != 1 {
		t.Errorf("carrying ORCHID: %+v", got)
	}
	if got := s.Carrying("TULIP"); len(got) != 1 || got[0].N != 2 {
		t.Errorf("carrying TULIP: %+v", got)
	}
	if len(s.Turns()) != 2 {
		t.Errorf("turns: %+v", s.Turns())
	}
}

func compact(events []string) []string {
	var out []string
	for _, e := range events {
		if len(out) == 0 || out[len(out)-1] != e {
			out = append(out, e)
		}
	}
	return out
}

func TestResponses(t *testing.T) {
	s := Start(t)
	body := `{"model":"gpt-x","stream":true,"instructions":"you are codex",
	  "input":[{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions>"}]},
	           {"type":"message","role":"user","content":[{"type":"input_text","text":"remember MAPLE"}]}]}`
	ct, stream := post(t, s.URL+"/v1/responses", body)
	text, events := sseText(t, stream, "delta")
	if ct != "text/event-stream" || text != "Noted. [stub reply to: remember MAPLE]" {
		t.Errorf("streamed: %s %q\n%s", ct, text, stream)
	}
	for _, e := range []string{"response.created", "response.output_item.added", "response.output_text.delta",
		"response.output_item.done", "response.completed"} {
		if !strings.Contains(strings.Join(events, " "), e) {
			t.Errorf("no %s in %v", e, events)
		}
	}
	r := s.Requests()[0]
	if r.API != Responses || r.System != "you are codex" || !r.Carries("MAPLE") || r.LastText() != "remember MAPLE" {
		t.Errorf("request: %+v", r)
	}
}

func TestChat(t *testing.T) {
	s := Start(t)
	body := `{"model":"m","stream":true,"messages":[{"role":"system","content":"sys"},{"role":"user","content":[{"type":"text","text":"CEDAR"}]}]}`
	_, stream := post(t, s.URL+"/v1/chat/completions", body)
	if text, _ := sseText(t, stream, "choices", "delta", "content"); text != "Noted. [stub reply to: CEDAR]" ||
		!strings.HasSuffix(strings.TrimSpace(stream), "data: [DONE]") {
		t.Errorf("streamed %q:\n%s", text, stream)
	}
	_, plain := post(t, s.URL+"/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"BIRCH"}]}`)
	if !strings.Contains(plain, `"content":"Noted. [stub reply to: BIRCH]"`) {
		t.Errorf("not streamed: %s", plain)
	}
	reqs := s.Requests()
	if reqs[0].System != "sys" || !reqs[0].Carries("CEDAR") || reqs[0].Carries("sys") || !reqs[1].Carries("BIRCH") {
		t.Errorf("requests: %+v", reqs)
	}
}

// needCLI is the path of an agent CLI, or skips (fails with
// KITTYMUX_E2E=require, as in CI, which installs them).
func needCLI(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		if os.Getenv("KITTYMUX_E2E") == "require" {
			t.Fatalf("%s is not on PATH; .ci/run installs it from npm", name)
		}
		t.Skipf("%s is not on PATH (KITTYMUX_E2E=require makes this fatal)", name)
	}
	return p
}

func runAgent(t *testing.T, home, dir string, env []string, argv ...string) string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(append(Isolated(os.Environ()), "HOME="+home), env...)
	cmd.Dir = dir
	done := make(chan struct{})
	var out []byte
	var err error
	go func() { out, err = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(90 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("%s did not finish in 90 s:\n%s", argv, out)
	}
	if err != nil {
		t.Fatalf("%s: %v\n%s", argv, err, out)
	}
	return string(out)
}

// oneShot runs the pinned CLI name, its HOME prepared by prepare, once
// with args: what it prints holds each of want, and the first request
// carrying word came over api. It returns the CLI's HOME.
func oneShot(t *testing.T, name string, prepare func(*Server, testing.TB, string, ...string) []string, api API,
	word string, want []string, args ...string) string {
	t.Helper()
	bin := needCLI(t, name)
	s := Start(t)
	home, dir := t.TempDir(), t.TempDir()
	env := prepare(s, t, home, dir)
	out := runAgent(t, home, dir, env, append([]string{bin}, args...)...)
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s printed %q, want %q in it; requests:\n%s", name, out, w, s.Summary())
		}
	}
	if rs := s.Carrying(word); len(rs) == 0 || rs[0].API != api {
		t.Errorf("requests:\n%s", s.Summary())
	}
	return home
}

// TestRealClaudePrint: the pinned claude, prepared by ClaudeHome, holds a
// one-shot conversation with the stand-in and prints its reply.
func TestRealClaudePrint(t *testing.T) {
	oneShot(t, "claude", (*Server).ClaudeHome, Anthropic, "PEONY", []string{"[stub reply to: remember PEONY]"},
		"-p", "remember PEONY")
}

// TestRealCodexExec: the pinned codex, logged in and configured by
// CodexHome, holds a one-shot conversation with the stand-in.
func TestRealCodexExec(t *testing.T) {
	home := oneShot(t, "codex", (*Server).CodexHome, Responses, "LILAC", []string{"[stub reply to: remember LILAC]"},
		"exec", "--skip-git-repo-check", "remember LILAC")
	if _, err := os.Stat(filepath.Join(home, ".codex", "auth.json")); err != nil {
		t.Errorf("codex login wrote no auth.json: %v", err)
	}
}
