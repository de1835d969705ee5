package probe_test

import "github.com/kittymux/kittymux/pkg/agents/agentstest"

var (
	loadShipped = agentstest.Shipped
	recognised  = agentstest.Recognised
)

// Ids of each agent's form.
const (
	uuid    = agentstest.UUID
	codexID = agentstest.CodexID
)
