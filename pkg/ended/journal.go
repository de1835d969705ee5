package ended

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/kittymux/kittymux/pkg/journal"
)

// JournalPrefix starts the key of a kitty known only from the journal: one
// too old to save (kitty < 0.43), whose conversations `sessions recover`
// brings back.
const JournalPrefix = "journal-"

// RecoverSince is how recently a conversation must have been active to be
// offered from the journal: `sessions recover`'s default.
const RecoverSince = 6 * time.Hour

// GoneKitty is a kitty that went away with conversations open, as the
// journal recorded it.
type GoneKitty struct {
	Key    string
	PID    int
	Socket string
	// Ended is when the scanner saw it go.
	Ended time.Time
	// Records are its conversations that ended with it, active since the
	// cutoff and not open again anywhere.
	Records []journal.Record
}

// JournalKey is the key of the kitty a journal record ran in.
func JournalKey(r journal.Record) string {
	if r.KittyPID > 0 {
		return JournalPrefix + strconv.Itoa(r.KittyPID)
	}
	h := sha256.Sum256([]byte(r.KittySocket))
	return JournalPrefix + "s" + hex.EncodeToString(h[:4])
}

// GoneKitties groups the journal's conversations that ended because their
// kitty went away (never those closed by hand), last active since cutoff
// and not running again (an open record of the same conversation), by
// kitty, the kitty that went away last first.
func GoneKitties(f *journal.File, cutoff time.Time) []GoneKitty {
	if f == nil {
		return nil
	}
	open := map[string]bool{}
	for _, r := range f.Records {
		if r.Open && r.ID != "" {
			open[r.Agent+"\x00"+r.ID] = true
		}
	}
	byKey := map[string]*GoneKitty{}
	for _, r := range f.Records {
		if r.Open || r.CloseReason != journal.ClosedKittyGone || r.ClosedAt == nil || r.LastSeen.Before(cutoff) {
			continue
		}
		if r.ID != "" && open[r.Agent+"\x00"+r.ID] {
			continue
		}
		key := JournalKey(r)
		g := byKey[key]
		if g == nil {
			g = &GoneKitty{Key: key, PID: r.KittyPID, Socket: r.KittySocket}
			byKey[key] = g
		}
		g.Records = append(g.Records, r)
		if r.ClosedAt.After(g.Ended) {
			g.Ended = *r.ClosedAt
		}
	}
	out := make([]GoneKitty, 0, len(byKey))
	for _, g := range byKey {
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Ended.Equal(out[j].Ended) {
			return out[i].Ended.After(out[j].Ended)
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// OfferableGone is the gone kitty to offer a kitty that starts: the last
// that went away whose conversations were neither restored, dismissed,
// offered nor put off.
func OfferableGone(gs []GoneKitty, st File) *GoneKitty {
	for i := range gs {
		g := gs[i]
		m := markOf(st, g.Key, g.Ended)
		if m.Offered.IsZero() && m.Later.IsZero() && m.Restored.IsZero() && m.Dismissed.IsZero() {
			return &g
		}
	}
	return nil
}

// IsJournalKey says whether key names a kitty known from the journal.
func IsJournalKey(key string) bool { return strings.HasPrefix(key, JournalPrefix) }
