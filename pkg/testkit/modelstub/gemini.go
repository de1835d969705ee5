package modelstub

import (
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
)

// Gemini is the Gemini API's generateContent (streamGenerateContent with
// alt=sse streams) that gemini 0.61.0 calls with an API key.
const (
	Gemini            API = "gemini generateContent"
	GeminiCountTokens API = "gemini countTokens"
)

// geminiMethod splits a Gemini API path, /v1beta/models/MODEL:METHOD, into
// its model and method; ok is false for any other path.
func geminiMethod(path string) (model, method string, ok bool) {
	i := strings.Index(path, "/models/")
	if i < 0 {
		return "", "", false
	}
	model, method, ok = strings.Cut(path[i+len("/models/"):], ":")
	return model, method, ok && model != "" && !strings.Contains(model, "/")
}

// geminiRequest reads a generateContent body: contents [{role, parts:
// [{text}|{functionCall}|{functionResponse}...]}], systemInstruction.
func geminiRequest(r *Request, body []byte) {
	var in struct {
		Contents          json.RawMessage `json:"contents"`
		SystemInstruction json.RawMessage `json:"systemInstruction"`
	}
	_ = json.Unmarshal(body, &in)

	r.System = strings.Join(texts(in.SystemInstruction), "\n")
	var contents []struct {
		Role  string `json:"role"`
		Parts []struct {
			Text    string `json:"text"`
			Thought bool   `json:"thought"`
		} `json:"parts"`
	}
	_ = json.Unmarshal(in.Contents, &contents)
	r.Texts = texts(in.Contents)
	for _, c := range contents {
		if c.Role != "user" {
			continue
		}
		for _, p := range c.Parts {
			// gemini's own context (<session_context>, the date and
			// directory listing) is not what a user typed.
			if t := strings.TrimSpace(p.Text); t != "" && !p.Thought && !strings.HasPrefix(t, "<") {
				r.Typed = append(r.Typed, p.Text)
			}
		}
	}
}

// gemini answers a Gemini API request: generateContent as one JSON,
// streamGenerateContent as Server-Sent Events (alt=sse) or a JSON array,
// countTokens with a count.
func (s *Server) gemini(w http.ResponseWriter, req *http.Request, r Request, body []byte) {
	model, method, _ := geminiMethod(r.Path)
	r.Model = model
	geminiRequest(&r, body)
	switch method {
	case "countTokens":
		r.API = GeminiCountTokens
		s.record(r)
		writeJSON(w, map[string]any{"totalTokens": 10 + len(strings.Join(r.Texts, " "))/4})
		return
	case "generateContent":
		r.API = Gemini
	case "streamGenerateContent":
		r.API, r.Stream = Gemini, true
	default:
		s.record(r)
		http.Error(w, `{"error":{"code":404,"message":"the model stand-in does not serve this","status":"NOT_FOUND"}}`,
			http.StatusNotFound)
		return
	}
	// A request for JSON is the CLI's own machinery (gemini routes each
	// turn by a classifier's JSON, checks who speaks next): answered with
	// a value of its schema, and not a turn.
	answer := ""
	if schema, ok := geminiJSONSchema(body); ok {
		j, _ := json.Marshal(fromSchema(schema, 0))
		answer = string(j)
	} else {
		r.Reply = s.reply(r)
		answer = r.Reply
	}
	r = s.record(r)
	usage := map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 1 + len(answer)/4,
		"totalTokenCount": 11 + len(answer)/4}
	response := func(text string, finish bool, u bool) map[string]any {
		cand := map[string]any{"index": 0, "content": map[string]any{"role": "model",
			"parts": []any{map[string]any{"text": text}}}}
		if finish {
			cand["finishReason"] = "STOP"
		}
		m := map[string]any{"candidates": []any{cand}, "modelVersion": model,
			"responseId": fmt.Sprintf("stub%06d", r.N)}
		if u {
			m["usageMetadata"] = usage
		}
		return m
	}
	if !r.Stream {
		writeJSON(w, response(answer, true, true))
		return
	}
	parts := chunks(answer)
	if req.URL.Query().Get("alt") != "sse" {
		var all []any
		for i, c := range parts {
			all = append(all, response(c, i == len(parts)-1, i == len(parts)-1))
		}
		writeJSON(w, all)
		return
	}
	e := newSSE(w)
	for i, c := range parts {
		e.event("", response(c, i == len(parts)-1, i == len(parts)-1))
	}
}

// GeminiKey is the API key gemini is given (any key does).
const GeminiKey = "AIzaStub-0123456789abcdefghijklmnopqrstu"

// GeminiHome prepares home (a throw-away HOME, never the user's) for gemini
// 0.61.0 to talk to s: ~/.gemini/settings.json choosing the API-key auth
// (no auth dialog) and no update or usage checks, each of dirs in
// ~/.gemini/trustedFolders.json. It returns the environment gemini needs
// besides HOME=home.
func (s *Server) GeminiHome(t testing.TB, home string, dirs ...string) []string {
	t.Helper()
	writeJSONFile(t, filepath.Join(home, ".gemini", "settings.json"), map[string]any{
		"security":  map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}},
		"general":   map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
	})
	trusted := map[string]any{}
	for _, d := range dirs {
		trusted[d] = "TRUST_FOLDER"
	}
	writeJSONFile(t, filepath.Join(home, ".gemini", "trustedFolders.json"), trusted)
	return []string{"GOOGLE_GEMINI_BASE_URL=" + s.URL, "GEMINI_API_KEY=" + GeminiKey}
}

// geminiJSONSchema returns the schema of a request that asks for JSON
// (generationConfig.responseMimeType application/json).
func geminiJSONSchema(body []byte) (map[string]any, bool) {
	var in struct {
		GenerationConfig struct {
			ResponseMimeType   string         `json:"responseMimeType"`
			ResponseJSONSchema map[string]any `json:"responseJsonSchema"`
			ResponseSchema     map[string]any `json:"responseSchema"`
		} `json:"generationConfig"`
	}
	_ = json.Unmarshal(body, &in)
	g := in.GenerationConfig
	if g.ResponseMimeType != "application/json" {
		return nil, false
	}
	if g.ResponseJSONSchema != nil {
		return g.ResponseJSONSchema, true
	}
	return g.ResponseSchema, true
}

// fromSchema makes a value that a JSON schema (or the Gemini API's
// uppercase form of one) accepts: an enum's first value, a number's
// minimum (else 1), every property of an object.
func fromSchema(schema map[string]any, depth int) any {
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	typ, _ := schema["type"].(string)
	if types, ok := schema["type"].([]any); ok && len(types) > 0 {
		typ, _ = types[0].(string)
	}
	switch strings.ToLower(typ) {
	case "object":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		if depth < 8 {
			for k, v := range props {
				if sub, ok := v.(map[string]any); ok {
					out[k] = fromSchema(sub, depth+1)
				}
			}
		}
		return out
	case "array":
		return []any{}
	case "integer", "number":
		if m, ok := schema["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return false
	default:
		return "stub"
	}
}
