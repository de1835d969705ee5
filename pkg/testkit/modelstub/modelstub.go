// Package modelstub is a stand-in for the model APIs the agent CLIs talk
// to: a loopback HTTP server that speaks enough of the Anthropic Messages
// API (streamed and not, count_tokens), the OpenAI Responses API (streamed)
// and Chat Completions (streamed and not) for the pinned claude and codex to
// hold real conversations offline. It records every request, so a test can
// ask which requests carry a word: a resumed conversation proves itself, as
// its next request carries the earlier turns.
package modelstub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// API names the wire protocol of a request.
type API string

const (
	Anthropic   API = "anthropic messages"
	CountTokens API = "anthropic count_tokens"
	Responses   API = "openai responses"
	Chat        API = "openai chat completions"
	Other       API = "other"
)

// Request is one request the stand-in answered.
type Request struct {
	N      int // its number, from 1, in the order they came
	Method string
	Path   string // without the query
	API    API
	Model  string
	Stream bool
	// Texts is the text of every message of the conversation, in order
	// (Anthropic messages, Responses input items, Chat messages: every
	// string inside them), without the system prompt or instructions.
	Texts []string
	// Typed is the text of each user message's text part that is not the
	// agent's own context (those start with "<": claude's
	// <system-reminder>, codex's <environment_context>): what a user typed.
	Typed []string
	// System is the system prompt or instructions, as text.
	System string
	// Reply is the text the stand-in answered ("" when not a turn).
	Reply string
	At    time.Time
}

// Carries reports whether one of the request's messages holds word.
func (r Request) Carries(word string) bool {
	return slices.ContainsFunc(r.Texts, func(s string) bool { return strings.Contains(s, word) })
}

// LastText is the text the user typed last ("" without one).
func (r Request) LastText() string {
	if len(r.Typed) == 0 {
		return ""
	}
	return r.Typed[len(r.Typed)-1]
}

// Server is a running stand-in. Start makes one.
type Server struct {
	// URL is its base, "http://127.0.0.1:PORT", without /v1.
	URL string
	// Reply chooses the text of the answer to a turn. Default: "Noted."
	// followed by Marker(the request). Set it before the agents talk.
	Reply func(Request) string

	srv  *http.Server
	mu   sync.Mutex
	reqs []Request
}

// Start starts a stand-in on a loopback port; it stops when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{URL: "http://" + ln.Addr().String()}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	t.Cleanup(func() { _ = s.srv.Close() })
	return s
}

// Requests returns every request so far, oldest first.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

// Turns returns the requests that asked for a reply (Anthropic messages,
// Responses, Chat), oldest first.
func (s *Server) Turns() []Request {
	return slices.DeleteFunc(s.Requests(), func(r Request) bool { return r.Reply == "" })
}

// Carrying returns the turns whose messages hold word.
func (s *Server) Carrying(word string) []Request {
	return slices.DeleteFunc(s.Turns(), func(r Request) bool { return !r.Carries(word) })
}

// WaitCarrying waits until a turn carries word and returns the turns that
// do; it fails the test after timeout.
func (s *Server) WaitCarrying(t testing.TB, word string, timeout time.Duration) []Request {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		if rs := s.Carrying(word); len(rs) > 0 {
			return rs
		}
		if time.Now().After(deadline) {
			t.Fatalf("model stand-in: no request carried %q within %v; requests:\n%s", word, timeout, s.Summary())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Summary is one line per request, for failure messages.
func (s *Server) Summary() string {
	var b strings.Builder
	for _, r := range s.Requests() {
		fmt.Fprintf(&b, "#%d %s %s (%s) model=%q stream=%v messages=%d last=%q\n", r.N, r.Method, r.Path, r.API, r.Model,
			r.Stream, len(r.Texts), clip(r.LastText(), 120))
	}
	return b.String()
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// Marker is what the default reply echoes: the last message's text, so a
// screen shows which message was answered.
func Marker(r Request) string {
	return "[stub reply to: " + clip(strings.Join(strings.Fields(r.LastText()), " "), 200) + "]"
}

func (s *Server) record(r Request) Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	r.N = len(s.reqs) + 1
	s.reqs = append(s.reqs, r)
	return r
}

func (s *Server) reply(r Request) string {
	if s.Reply != nil {
		return s.Reply(r)
	}
	return "Noted. " + Marker(r)
}

// ServeHTTP answers one request.
func (s *Server) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(req.Body, 64<<20))
	r := Request{Method: req.Method, Path: req.URL.Path, API: Other, At: time.Now()}
	var in map[string]json.RawMessage
	_ = json.Unmarshal(body, &in)
	str := func(k string) string {
		var v string
		_ = json.Unmarshal(in[k], &v)
		return v
	}
	_ = json.Unmarshal(in["stream"], &r.Stream)
	r.Model = str("model")
	path := strings.TrimSuffix(req.URL.Path, "/")
	if _, _, ok := geminiMethod(path); ok && req.Method == http.MethodPost {
		s.gemini(w, req, r, body)
		return
	}
	switch {
	case req.Method == http.MethodPost && strings.HasSuffix(path, "/messages/count_tokens"):
		r.API = CountTokens
		r.Texts, r.System = texts(in["messages"]), strings.Join(texts(in["system"]), "\n")
	case req.Method == http.MethodPost && strings.HasSuffix(path, "/messages"):
		r.API = Anthropic
		r.Texts, r.System = texts(in["messages"]), strings.Join(texts(in["system"]), "\n")
		r.Typed = typed(in["messages"])
	case req.Method == http.MethodPost && strings.HasSuffix(path, "/responses"):
		r.API = Responses
		r.System = str("instructions")
		r.Texts, r.Typed = texts(in["input"]), typed(in["input"])
		if s := str("input"); s != "" {
			r.Texts, r.Typed = []string{s}, []string{s}
		}
	case req.Method == http.MethodPost && strings.HasSuffix(path, "/chat/completions"):
		r.API = Chat
		var msgs []map[string]json.RawMessage
		_ = json.Unmarshal(in["messages"], &msgs)
		for _, m := range msgs {
			var role string
			_ = json.Unmarshal(m["role"], &role)
			if role == "system" || role == "developer" {
				r.System += strings.Join(texts(m["content"]), "\n")
				continue
			}
			r.Texts = append(r.Texts, strings.Join(texts(m["content"]), "\n"))
		}
		r.Typed = typed(in["messages"])
	}
	switch r.API {
	case Anthropic, Responses, Chat:
		r.Reply = s.reply(r)
	}
	r = s.record(r)

	switch r.API {
	case CountTokens:
		writeJSON(w, map[string]any{"input_tokens": 10 + len(strings.Join(r.Texts, " "))/4})
	case Anthropic:
		s.anthropic(w, r)
	case Responses:
		s.responses(w, r)
	case Chat:
		s.chat(w, r)
	default:
		if req.Method == http.MethodGet && strings.HasSuffix(path, "/models") {
			writeJSON(w, map[string]any{"object": "list", "data": []any{}})
			return
		}
		http.Error(w, `{"error":{"type":"not_found_error","message":"the model stand-in does not serve this"}}`,
			http.StatusNotFound)
	}
}

// texts collects every string under a message list, content block list or
// string: the words a conversation carries.
func texts(raw json.RawMessage) []string {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []string
	switch v := v.(type) {
	case []any:
		for _, item := range v {
			if s := strings.Join(strs(item, nil), "\n"); s != "" {
				out = append(out, s)
			}
		}
	default:
		if s := strings.Join(strs(v, nil), "\n"); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// typed returns the text parts of the user messages in a message list that
// are not the agent's own context.
func typed(raw json.RawMessage) []string {
	var msgs []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(raw, &msgs) != nil {
		return nil
	}
	var out []string
	for _, m := range msgs {
		if m.Role != "user" {
			continue
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			if !strings.HasPrefix(strings.TrimSpace(s), "<") {
				out = append(out, s)
			}
			continue
		}
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		_ = json.Unmarshal(m.Content, &parts)
		for _, p := range parts {
			switch p.Type {
			case "text", "input_text":
				if !strings.HasPrefix(strings.TrimSpace(p.Text), "<") {
					out = append(out, p.Text)
				}
			}
		}
	}
	return out
}

// strs appends the text strings inside v: a string itself, the "text" and
// "content" of objects and their parts, and any other string value except
// the structural ones (type, role, ids).
func strs(v any, out []string) []string {
	switch v := v.(type) {
	case string:
		return append(out, v)
	case []any:
		for _, x := range v {
			out = strs(x, out)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			switch k {
			case "type", "role", "id", "tool_use_id", "call_id", "cache_control", "signature", "status":
				continue
			}
			out = strs(v[k], out)
		}
	}
	return out
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// sse writes Server-Sent Events: each event a name (none when "") and its
// data as JSON.
type sse struct {
	w http.ResponseWriter
}

func newSSE(w http.ResponseWriter) sse {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return sse{w}
}

func (e sse) event(name string, data any) {
	var b bytes.Buffer
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	j, _ := json.Marshal(data)
	b.WriteString("data: ")
	b.Write(j)
	b.WriteString("\n\n")
	_, _ = e.w.Write(b.Bytes())
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (e sse) raw(line string) {
	_, _ = io.WriteString(e.w, line)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// chunks splits text in a few pieces, as a model streams it.
func chunks(text string) []string {
	words := strings.SplitAfter(text, " ")
	var out []string
	for i := 0; i < len(words); i += 4 {
		out = append(out, strings.Join(words[i:min(i+4, len(words))], ""))
	}
	return out
}

func (s *Server) anthropic(w http.ResponseWriter, r Request) {
	id := fmt.Sprintf("msg_stub%06d", r.N)
	model := r.Model
	if model == "" {
		model = "claude-stub"
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 1 + len(r.Reply)/4,
		"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
	if !r.Stream {
		writeJSON(w, map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content":     []any{map[string]any{"type": "text", "text": r.Reply}},
			"stop_reason": "end_turn", "stop_sequence": nil, "usage": usage})
		return
	}
	e := newSSE(w)
	e.event("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": id, "type": "message", "role": "assistant", "model": model, "content": []any{},
		"stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 1, "cache_creation_input_tokens": 0,
			"cache_read_input_tokens": 0}}})
	e.event("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	for _, c := range chunks(r.Reply) {
		e.event("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": c}})
	}
	e.event("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	e.event("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": "end_turn", "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 1 + len(r.Reply)/4}})
	e.event("message_stop", map[string]any{"type": "message_stop"})
}

func (s *Server) responses(w http.ResponseWriter, r Request) {
	respID := fmt.Sprintf("resp_stub%06d", r.N)
	itemID := fmt.Sprintf("msg_stub%06d", r.N)
	model := r.Model
	if model == "" {
		model = "gpt-stub"
	}
	usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 1 + len(r.Reply)/4, "output_tokens_details": map[string]any{"reasoning_tokens": 0},
		"total_tokens": 11 + len(r.Reply)/4}
	item := func(text string, status string) map[string]any {
		return map[string]any{"type": "message", "id": itemID, "status": status, "role": "assistant",
			"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}}
	}
	response := func(status string, output []any) map[string]any {
		m := map[string]any{"id": respID, "object": "response", "created_at": r.At.Unix(), "status": status,
			"model": model, "output": output}
		if status == "completed" {
			m["usage"] = usage
		}
		return m
	}
	if !r.Stream {
		writeJSON(w, response("completed", []any{item(r.Reply, "completed")}))
		return
	}
	e := newSSE(w)
	seq := 0
	ev := func(typ string, m map[string]any) {
		m["type"], m["sequence_number"] = typ, seq
		seq++
		e.event(typ, m)
	}
	ev("response.created", map[string]any{"response": response("in_progress", []any{})})
	ev("response.in_progress", map[string]any{"response": response("in_progress", []any{})})
	ev("response.output_item.added", map[string]any{"output_index": 0, "item": item("", "in_progress")})
	ev("response.content_part.added", map[string]any{"output_index": 0, "item_id": itemID, "content_index": 0,
		"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
	for _, c := range chunks(r.Reply) {
		ev("response.output_text.delta", map[string]any{"output_index": 0, "item_id": itemID, "content_index": 0,
			"delta": c})
	}
	ev("response.output_text.done", map[string]any{"output_index": 0, "item_id": itemID, "content_index": 0,
		"text": r.Reply})
	ev("response.content_part.done", map[string]any{"output_index": 0, "item_id": itemID, "content_index": 0,
		"part": map[string]any{"type": "output_text", "text": r.Reply, "annotations": []any{}}})
	ev("response.output_item.done", map[string]any{"output_index": 0, "item": item(r.Reply, "completed")})
	ev("response.completed", map[string]any{"response": response("completed", []any{item(r.Reply, "completed")})})
}

func (s *Server) chat(w http.ResponseWriter, r Request) {
	id := fmt.Sprintf("chatcmpl-stub%06d", r.N)
	model := r.Model
	if model == "" {
		model = "gpt-stub"
	}
	created := r.At.Unix()
	usage := map[string]any{"prompt_tokens": 10, "completion_tokens": 1 + len(r.Reply)/4,
		"total_tokens": 11 + len(r.Reply)/4}
	if !r.Stream {
		writeJSON(w, map[string]any{"id": id, "object": "chat.completion", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": r.Reply}}},
			"usage": usage})
		return
	}
	e := newSSE(w)
	chunk := func(delta map[string]any, finish any, u any) {
		m := map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}}
		if u != nil {
			m["usage"] = u
		}
		e.event("", m)
	}
	chunk(map[string]any{"role": "assistant", "content": ""}, nil, nil)
	for _, c := range chunks(r.Reply) {
		chunk(map[string]any{"content": c}, nil, nil)
	}
	chunk(map[string]any{}, "stop", usage)
	e.raw("data: [DONE]\n\n")
}
