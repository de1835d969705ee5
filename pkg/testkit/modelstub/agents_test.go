package modelstub

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestGemini(t *testing.T) {
	s := Start(t)
	body := `{"contents":[{"role":"user","parts":[{"text":"<session_context>dir</session_context>"}]},
	  {"role":"user","parts":[{"text":"remember ASPEN"}]},{"role":"model","parts":[{"text":"ok"}]},
	  {"role":"user","parts":[{"text":"again?"}]}],
	  "systemInstruction":{"role":"user","parts":[{"text":"you are gemini"}]},"generationConfig":{"temperature":0}}`
	ct, stream := post(t, s.URL+"/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", body)
	text, _ := sseText(t, stream, "candidates", "content", "parts", "text")
	if ct != "text/event-stream" || text != "Noted. [stub reply to: again?]" || !strings.Contains(stream, `"finishReason":"STOP"`) {
		t.Errorf("streamed: %s %q\n%s", ct, text, stream)
	}
	_, plain := post(t, s.URL+"/v1beta/models/gemini-2.5-flash:generateContent", `{"contents":[{"role":"user","parts":[{"text":"BIRCH"}]}]}`)
	var resp struct {
		Candidates []struct {
			Content struct {
				Role  string
				Parts []struct{ Text string }
			}
			FinishReason string
		}
	}
	if err := json.Unmarshal([]byte(plain), &resp); err != nil || len(resp.Candidates) != 1 ||
		resp.Candidates[0].Content.Parts[0].Text != "Noted. [stub reply to: BIRCH]" || resp.Candidates[0].Content.Role != "model" {
		t.Errorf("not streamed: %v %s", err, plain)
	}
	_, count := post(t, s.URL+"/v1beta/models/gemini-2.5-flash:countTokens", `{"contents":[{"role":"user","parts":[{"text":"x"}]}]}`)
	if !strings.Contains(count, `"totalTokens"`) {
		t.Errorf("countTokens: %s", count)
	}
	reqs := s.Requests()
	if len(reqs) != 3 || reqs[0].API != Gemini || !reqs[0].Stream || reqs[0].Model != "gemini-2.5-pro" ||
		reqs[0].System != "you are gemini" || reqs[1].Stream || reqs[2].API != GeminiCountTokens {
		t.Fatalf("requests: %+v", reqs)
	}
	if diff := cmp.Diff([]string{"remember ASPEN", "again?"}, reqs[0].Typed); diff != "" {
		t.Errorf("typed (-want +got):\n%s", diff)
	}
	if got := s.Carrying("ASPEN"); len(got) != 1 || got[0].N != 1 {
		t.Errorf("carrying ASPEN: %+v", got)
	}
	if len(s.Turns()) != 2 {
		t.Errorf("turns: %+v", s.Turns())
	}
}

// TestGeminiJSON: a request for JSON (gemini's router, its next-speaker
// check) gets a value of its schema, and is not a turn.
func TestGeminiJSON(t *testing.T) {
	s := Start(t)
	body := `{"contents":[{"role":"user","parts":[{"text":"remember ASPEN"}]}],
	  "generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"OBJECT",
	    "properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER","minimum":1},
	      "next_speaker":{"type":"string","enum":["user","model"]},"list":{"type":"array"}},
	    "required":["complexity_reasoning","complexity_score"]}}}`
	_, plain := post(t, s.URL+"/v1beta/models/m:generateContent", body)
	var resp struct {
		Candidates []struct {
			Content struct{ Parts []struct{ Text string } }
		}
	}
	if err := json.Unmarshal([]byte(plain), &resp); err != nil || len(resp.Candidates) != 1 {
		t.Fatalf("%v %s", err, plain)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(resp.Candidates[0].Content.Parts[0].Text), &got); err != nil {
		t.Fatalf("the answer is not JSON: %v %s", err, plain)
	}
	want := map[string]any{"complexity_reasoning": "stub", "complexity_score": 1.0, "next_speaker": "user", "list": []any{}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	if len(s.Requests()) != 1 || len(s.Turns()) != 0 {
		t.Errorf("requests %+v, turns %+v", s.Requests(), s.Turns())
	}
}

func TestGeminiMethod(t *testing.T) {
	for path, want := range map[string]string{
		"/v1beta/models/gemini-2.5-pro:generateContent": "gemini-2.5-pro generateContent",
		"/v1/models/m:streamGenerateContent":            "m streamGenerateContent",
		"/v1beta/models/m":                              "",
		"/v1/chat/completions":                          "",
		"/v1beta/models/a/b:generateContent":            "",
	} {
		model, method, ok := geminiMethod(path)
		got := ""
		if ok {
			got = model + " " + method
		}
		if got != want {
			t.Errorf("geminiMethod(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestRealGeminiPrint: the pinned gemini, prepared by GeminiHome, holds a
// one-shot conversation with the stand-in and prints its reply.
func TestRealGeminiPrint(t *testing.T) {
	oneShot(t, "gemini", (*Server).GeminiHome, Gemini, "PEONY", []string{"[stub reply to: remember PEONY]"},
		"-p", "remember PEONY")
}

// TestRealOpenCodeRun: the pinned opencode, configured by OpenCodeHome,
// holds a one-shot conversation with the stand-in. opencode run sends the
// message quoted, and asks for a title too.
func TestRealOpenCodeRun(t *testing.T) {
	oneShot(t, "opencode", (*Server).OpenCodeHome, Chat, "LILAC", []string{"[stub reply to: ", "remember LILAC"},
		"run", "remember LILAC")
}

// TestRealPiPrint: the pinned pi, configured by PiHome, holds a one-shot
// conversation with the stand-in with no provider or model named.
func TestRealPiPrint(t *testing.T) {
	oneShot(t, "pi", (*Server).PiHome, Chat, "TULIP", []string{"[stub reply to: remember TULIP]"},
		"-p", "remember TULIP")
}
