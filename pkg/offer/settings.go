package offer

import (
	"github.com/kittymux/kittymux/pkg/config"
	"github.com/kittymux/kittymux/pkg/paths"
)

// EnvOffer set to "0" turns the offer on start off.
const EnvOffer = "KITTYMUX_OFFER"

// OfferOff says why the offer on start is off, "" when it is on: the
// environment, or config.json's {"offer": {"on_start": false}}. A
// config.json that does not parse leaves it on (autosave reports it).
func OfferOff(p paths.Paths, getenv func(string) string) string {
	if getenv(EnvOffer) == "0" {
		return EnvOffer + "=0"
	}
	// A file that cannot be read is reported by autosave.
	if c, err := config.ReadOffer(p); err == nil && c.OnStart != nil && !*c.OnStart {
		return p.Config() + ": offer.on_start is false"
	}
	return ""
}
