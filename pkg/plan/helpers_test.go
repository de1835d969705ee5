package plan_test

import "github.com/kittymux/kittymux/pkg/agents/agentstest"

var (
	loadShipped = agentstest.Shipped
	recognised  = agentstest.Recognised
)

func w(s ...string) []string { return s }
