package plan_test

import "github.com/kittymux/kittymux/pkg/agents/agentstest"

var (
	loadShipped = agentstest.Shipped
	recognised  = agentstest.Recognised
)

func w(s ...string) []string { return s }

// Ids of each agent's form.
const (
	uuid    = agentstest.UUID
	codexID = agentstest.CodexID
	sesID   = agentstest.SesID
	ampID   = agentstest.AmpID
	tokenID = agentstest.TokenID
)
