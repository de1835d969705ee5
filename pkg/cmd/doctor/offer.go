package doctor

import "github.com/kittymux/kittymux/pkg/offer"

// OfferReport is the offer on start: whether a kitty that starts is
// offered the session of a kitty that ended. Field names are stable.
type OfferReport struct {
	On   bool   `json:"on"`
	Note string `json:"note"`
}

func checkOffer(o *Options, sc ScannerReport) OfferReport {
	if why := offer.OfferOff(o.Paths, o.Getenv); why != "" {
		return OfferReport{Note: "off: " + why}
	}
	r := OfferReport{On: true, Note: offerOn}
	if !sc.Running {
		r.Note += "; the scanner makes the offer, and it is not running"
	}
	return r
}

// offerOn says what the offer does and how to turn it off.
const offerOn = "on: a kitty that starts offers, once, the session of a kitty that ended without being restored " +
	"(" + offer.EnvOffer + "=0 or {\"offer\": {\"on_start\": false}} in config.json turn it off)"
