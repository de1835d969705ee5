package ended

import (
	"encoding/json"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/userfile"
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
	// A FIFO or device there is an error here, as it is to autosave,
	// which reports it.
	data, err := userfile.Read(p.Config(), 1<<20)
	if err != nil {
		return ""
	}
	var c struct {
		Offer struct {
			OnStart *bool `json:"on_start"`
		} `json:"offer"`
	}
	if json.Unmarshal(data, &c) == nil && c.Offer.OnStart != nil && !*c.Offer.OnStart {
		return p.Config() + ": offer.on_start is false"
	}
	return ""
}
