package resume

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/kittymux/kittymux/pkg/paths"
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
	ErrNoKey     = errors.New("no sealing key")
	ErrKeyUnsafe = errors.New("sealing key is not private to this user")
)

// sealVersion starts the sealed message, so a later format cannot be read
// as this one.
const sealVersion = "kittymux-resume/1\n"

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
// (agentNames: the defined agents, whose own variables count), or a word
// the prompt's parser refuses (a resolved path with a control character).
func (r Record) Written(key []byte, agentNames []string) ([]string, error) {
	for _, e := range r.Env {
		if err := CheckEnv(e); err != nil {
			return nil, err
		}
		if why := EnvNeedsSeal(e, agentNames); why != "" && key == nil {
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

// Verify reports why r's seal does not hold for key; nil when it does.
func (r Record) Verify(key []byte) error {
	switch {
	case r.Seal == "":
		return errors.New("it is not sealed")
	case len(key) != KeySize:
		return errors.New("this machine has no sealing key")
	}
	got, err := hex.DecodeString(r.Seal)
	if err != nil || !hmac.Equal(got, r.mac(key)) {
		return errors.New("its seal does not match (changed by hand, or sealed on another machine)")
	}
	return nil
}

// ReadKey reads the sealing key. A key that others could read or write is
// refused (ErrKeyUnsafe): whoever knows it can seal any record.
func ReadKey(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s does not exist", ErrNoKey, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read sealing key: %w", err)
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
	n, _ := f.Read(key)
	if n != KeySize {
		return nil, fmt.Errorf("%w: %s is not a key (%d bytes): remove it and save again", ErrKeyUnsafe, path, n)
	}
	return key[:KeySize], nil
}

// LoadOrCreateKey returns the sealing key, creating it the first time. Two
// kittymux processes may race to create it: the key is written in full to a
// temporary file and linked into place, and a link never replaces a file, so
// whoever loses reads the winner's key.
func LoadOrCreateKey(p paths.Paths) ([]byte, error) {
	path := p.ResumeKey()
	key, err := ReadKey(path)
	if !errors.Is(err, ErrNoKey) {
		return key, err
	}
	// The state directory only: `publish --stdout` writes no session.
	if err := os.MkdirAll(p.StateDir, 0o700); err != nil {
		return nil, fmt.Errorf("create state directory %s: %w", p.StateDir, err)
	}
	key = make([]byte, KeySize)
	if _, err := rand.Read(key); err != nil {
		return nil, fmt.Errorf("create sealing key: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".resume-key-*")
	if err != nil {
		return nil, fmt.Errorf("create sealing key: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(key)
	if err == nil {
		err = tmp.Chmod(0o600) // CreateTemp's mode already is; say so anyway
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("create sealing key: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return ReadKey(path)
		}
		return nil, fmt.Errorf("create sealing key: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		_ = d.Sync()
		d.Close()
	}
	return key, nil
}
