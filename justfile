# kittymux recipes: `just <recipe>`. CI runs `bash .ci/run` instead, which
# installs kitty, Xvfb and the agent CLIs first.

default:
    @just --list

# Build bin/kittymux and bin/kittymux-resume; static: no dynamic loader and libc at every start.
build:
    CGO_ENABLED=0 go build -o bin/ ./cmd/...

# Install kittymux and kittymux-resume into $(go env GOPATH)/bin (or $GOBIN), static as above.
install:
    CGO_ENABLED=0 go install ./cmd/...

# After editing assets/resume-agents.json: regenerate pkg/agents/shipped.go, the shipped agent
# definitions as Go (TestShippedGenerated fails until then).
generate:
    go generate ./pkg/agents/

# The quick tests, as a newcomer runs them anywhere: no kitty or Xvfb needed.
test-short:
    go test -short ./...

# Run the tests; real-kitty tests skip without kitty and Xvfb.
test:
    go test -timeout 30m ./...

# Only the tests against a real kitty under Xvfb (most in pkg/e2e); they fail when kitty or Xvfb is missing.
# Those that need kitty 0.43 or newer run $KITTYMUX_KITTY (default: kitty on PATH), the
# others kitty on PATH; see .ci/kitty-sid for a kitty 0.48.2 on Debian 12.
e2e:
    KITTYMUX_E2E=require go test -timeout 30m -run 'Real|E2E' ./...

# The README's picture of the restore prompt (docs/prompt.png), from a real kitty under Xvfb;
# needs ImageMagick's import. Look at it before committing it.
prompt-picture:
    bash scripts/prompt-picture

# The real-kitty tests with both CPUs kept busy by stress-ng (apt-get install stress-ng),
# `runs` times in a row: their start-up and wait bounds must stretch with the load.
e2e-stress runs="3":
    bash .ci/e2e-stress {{runs}}

bench:
    go test -run '^$' -bench . ./...

# Start-up of every command over a static Go "hello", interleaved, 300 rounds (BENCHMARKS.md, start-up).
bench-startup:
    go test -run '^$' -bench BenchmarkStartup -benchtime 1x ./cmd/kittymux/

# The restore benchmark on a real kitty 0.48.2 ($KITTYMUX_KITTY) under Xvfb: `sessions restore last` of 10, 30, 60
# agent windows beside kitty alone on the same layout, `runs` times; writes docs/bench-restore.{txt,tsv,svg}; then
# 10 real claudes (on PATH) in conversations with the model stand-in: docs/bench-restore-claude.{txt,tsv}.
bench-restore runs="3":
    bash scripts/bench-restore {{runs}}

# Fuzz every reader of outside input (.ci/fuzz lists them), `time` each; CI runs them 10 s each.
fuzz time="60s":
    bash .ci/fuzz {{time}}

vet:
    go vet ./...

# Format every Go file, tracked or new.
fmt:
    gofmt -w $(git ls-files --cached --others --exclude-standard '*.go')

# The hostile-terminal test with `seeds` random seeds beside CI's fixed ones (each logged: KITTYMUX_HOSTILE_SEED=S replays one).
hostile seeds="20":
    KITTYMUX_E2E=require KITTYMUX_HOSTILE_SEEDS={{seeds}} go test -timeout 60m -run 'TestRealHostileTerminal' ./pkg/e2e/
