package resumerecord

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/agents"
	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/statefile"
)

// A record kittymux writes is sealed: an HMAC-SHA256 over the record with a
// key only this user can read. The session file is editable, so the seal is
// what tells a record kittymux wrote from one edited by hand or copied from
// another machine, and only a sealed record may run without a key press or
// carry what kittymux saw but an editor must not choose (the agent's program
// outside PATH, environment that loads code).

// KeySize is the size of the sealing key in bytes.
const KeySize = 32

// Sentinel errors of the sealing key.
var (
	ErrNoKey = errors.New("no sealing key")
	// ErrNotSealed: the record carries no seal. kittymux writes such records
	// where it saw no process to confirm the command by (macOS, a process it
	// could not read), and a hand edit can drop one.
	ErrNotSealed = errors.New("it is not sealed: kittymux did not see this command run")
	ErrKeyUnsafe = errors.New("sealing key is not private to this user")
)

// sealVersion starts the sealed message, so a later format cannot be read
// as this one.
// Version 2 seals the directory (Record.Dir): a record of version 1 no
// longer holds, and asks.
const sealVersion = "kittymux-resume/2\n"

// message is the canonical form of r for sealing: every argument Args
// renders except the seal, each word length-prefixed so no two records
// share a message.
func (r Record) message() []byte {
	r.Seal = ""
	var b strings.Builder
	b.WriteString(sealVersion)
	for _, w := range r.Args() {
		b.WriteString(strconv.Itoa(len(w)))
		b.WriteByte(':')
		b.WriteString(w)
		b.WriteByte(',')
	}
	return []byte(b.String())
}

func (r Record) mac(key []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(r.message())
	return m.Sum(nil)
}

// Sealed returns r with its seal set for key.
func (r Record) Sealed(key []byte) Record {
	r.Seal = hex.EncodeToString(r.mac(key))
	return r
}

// Written returns the arguments of kittymux-resume for r as kittymux
// writes them: sealed with key (nil: left unsealed), or an error where the
// prompt would refuse the record, so the caller keeps its window as saved:
// an assignment only a sealed record may carry with no key to seal it
// (agentEnv: what configures the defined agents, Set.ConfigEnv), or a word
// the prompt's parser refuses (a resolved path with a control character).
func (r Record) Written(key []byte, agentEnv []agents.AgentEnv) ([]string, error) {
	for _, e := range r.Env {
		if err := CheckEnv(e); err != nil {
			return nil, err
		}
		if why := agents.EnvNeedsSeal(e, agentEnv); why != "" && key == nil {
			return nil, fmt.Errorf("%s, and there is no key to seal the record", why)
		}
	}
	if key != nil {
		r = r.Sealed(key)
	}
	args := r.Args()
	if _, err := ParseArgs(args); err != nil {
		return nil, err
	}
	return args, nil
}

// Verify reports why r's seal does not hold for key; nil when it does. A
// record that names no directory is not sealed: its seal could not say
// where it may run.
func (r Record) Verify(key []byte) error {
	switch {
	case r.Seal == "":
		return ErrNotSealed
	case len(key) != KeySize:
		return errors.New("this machine has no sealing key")
	}
	got, err := hex.DecodeString(r.Seal)
	if err != nil || !hmac.Equal(got, r.mac(key)) {
		return errors.New("its seal does not match (changed by hand, or sealed on another machine)")
	}
	if r.Dir == "" {
		return errors.New("it names no directory")
	}
	return nil
}

// VerifyIn is Verify for a record that runs in dir ("." for the process's
// own): its seal holds only there. dir is the sealed directory when the
// two name the same directory (one may go through a symbolic link).
func (r Record) VerifyIn(key []byte, dir string) error {
	if err := r.Verify(key); err != nil {
		return err
	}
	if !SameDir(r.Dir, dir) {
		return fmt.Errorf("it was sealed for the directory %s, not this one", r.Dir)
	}
	return nil
}

// SameDir reports whether a and b name the same existing directory (or
// are the same text).
func SameDir(a, b string) bool {
	if a == b && a != "" {
		return true
	}
	if a == "" || b == "" {
		return false
	}
	fa, err := os.Stat(a)
	if err != nil || !fa.IsDir() {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// ReadKey reads the sealing key at path, by the state directory's rules
// (package statefile): the directory holding it must not be a symbolic
// link, and must be ours and writable by nobody else, and the key itself a
// regular file that is not a link, ours, and private. Anything else is
// refused (ErrKeyUnsafe): whoever can choose the key can seal any record.
func ReadKey(path string) ([]byte, error) {
	dir, err := openKeyDir(filepath.Dir(path), false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s does not exist", ErrNoKey, path)
	}
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	return readKey(dir, path)
}

// openKeyDir opens the state directory for the key: made when create is set,
// refused when it is a link (statefile), not ours, or writable by others.
func openKeyDir(stateDir string, create bool) (*statefile.Dir, error) {
	var (
		dir *statefile.Dir
		err error
	)
	if create {
		dir, err = statefile.Make(stateDir)
	} else {
		dir, err = statefile.Open(stateDir)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrKeyUnsafe, err)
	}
	info, err := dir.Info()
	if err == nil && (!ownedByUs(info) || info.Mode().Perm()&0o022 != 0) {
		err = fmt.Errorf("%w: the state directory %s (mode %v) is not this user's alone", ErrKeyUnsafe, stateDir, info.Mode())
	}
	if err != nil {
		dir.Close()
		return nil, err
	}
	return dir, nil
}

func readKey(dir *statefile.Dir, path string) ([]byte, error) {
	f, err := dir.OpenRead(filepath.Base(path))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s does not exist", ErrNoKey, path)
	}
	if err != nil {
		// O_NOFOLLOW fails on a link with ELOOP.
		return nil, fmt.Errorf("%w: %s: %w", ErrKeyUnsafe, path, err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read sealing key: %w", err)
	}
	if !info.Mode().IsRegular() || info.Mode().Perm()&0o077 != 0 || !ownedByUs(info) {
		return nil, fmt.Errorf("%w: %s (mode %v): remove it and save again", ErrKeyUnsafe, path, info.Mode())
	}
	key := make([]byte, KeySize+1)
	n, _ := io.ReadFull(f, key)
	if n != KeySize {
		return nil, fmt.Errorf("%w: %s is not a key (%d bytes): remove it and save again", ErrKeyUnsafe, path, n)
	}
	return key[:KeySize], nil
}

// LoadOrCreateKey returns the sealing key, creating it the first time in
// the state directory, by the rules ReadKey reads it by. Two kittymux
// processes may race to create it: the key appears whole (statefile's
// CreateOnce links a complete file into place, never over another), so
// whoever loses reads the winner's key.
func LoadOrCreateKey(p paths.Paths) ([]byte, error) {
	path := p.ResumeKey()
	// The state directory only: `publish --stdout` writes no session.
	dir, err := openKeyDir(p.StateDir, true)
	if err != nil {
		return nil, fmt.Errorf("create sealing key: %w", err)
	}
	defer dir.Close()
	key, err := readKey(dir, path)
	if !errors.Is(err, ErrNoKey) {
		return key, err
	}
	key = make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("create sealing key: %w", err)
	}
	if err := dir.CreateOnce(filepath.Base(path), key); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readKey(dir, path)
		}
		return nil, fmt.Errorf("create sealing key: %w", err)
	}
	return key, nil
}
