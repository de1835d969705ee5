package modelstub

import (
	"path/filepath"
	"testing"
)

// OpenAIProvider and OpenAIModel name the stand-in in opencode's and pi's
// configuration: a custom OpenAI-compatible provider and its one model.
const (
	OpenAIProvider = "stub"
	OpenAIModel    = "stub-model"
)

// OpenCodeHome prepares home (a throw-away HOME, never the user's) for
// opencode 1.18.33 to talk to s: ~/.config/opencode/opencode.json with the
// stand-in as an OpenAI-compatible provider (Chat Completions, streamed),
// its model the default, no autoupdate. It returns the environment opencode
// needs besides HOME=home.
func (s *Server) OpenCodeHome(t testing.TB, home string, _ ...string) []string {
	t.Helper()
	writeJSONFile(t, filepath.Join(home, ".config", "opencode", "opencode.json"), map[string]any{
		"$schema": "https://opencode.ai/config.json",
		"provider": map[string]any{OpenAIProvider: map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "model stand-in",
			"options": map[string]any{"baseURL": s.URL + "/v1", "apiKey": Key},
			"models":  map[string]any{OpenAIModel: map[string]any{"name": "stand-in"}},
		}},
		"model":       OpenAIProvider + "/" + OpenAIModel,
		"small_model": OpenAIProvider + "/" + OpenAIModel,
		"autoupdate":  false,
		"share":       "disabled",
	})
	// opencode reads its configuration and keeps its database where the
	// XDG variables say: under home, whatever the caller's are.
	return []string{"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"), "XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"OPENCODE_DISABLE_AUTOUPDATE=1", "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_LSP_DOWNLOAD=1"}
}

// PiHome prepares home (a throw-away HOME, never the user's) for pi 0.73.1
// to talk to s: ~/.pi/agent/models.json with the stand-in as an
// OpenAI-completions provider, settings.json making it the default, so a
// plain `pi` uses it. It returns the environment pi needs besides
// HOME=home: no startup network checks.
func (s *Server) PiHome(t testing.TB, home string, _ ...string) []string {
	t.Helper()
	agent := filepath.Join(home, ".pi", "agent")
	writeJSONFile(t, filepath.Join(agent, "models.json"), map[string]any{"providers": map[string]any{
		OpenAIProvider: map[string]any{
			"baseUrl": s.URL + "/v1", "api": "openai-completions", "apiKey": Key,
			"compat": map[string]any{"supportsDeveloperRole": false, "supportsReasoningEffort": false},
			"models": []any{map[string]any{"id": OpenAIModel}},
		}}})
	writeJSONFile(t, filepath.Join(agent, "settings.json"), map[string]any{
		"defaultProvider": OpenAIProvider, "defaultModel": OpenAIModel, "quietStartup": true,
		"enableInstallTelemetry": false,
	})
	return []string{"PI_OFFLINE=1", "PI_SKIP_VERSION_CHECK=1"}
}
