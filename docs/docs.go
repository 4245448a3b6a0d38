// Package docs holds sayso's documentation for the people who use it, and
// embeds the pages that 'sayso help TOPIC' prints, so that the help and
// these files are the same text.
package docs

import _ "embed"

var (
	//go:embed policy.md
	policyPage string
	//go:embed agents.md
	agents string
	//go:embed environment.md
	environment string
	//go:embed threat-model.md
	threatModel string
)

// Topics are the pages 'sayso help' prints, by topic name.
var Topics = map[string]string{
	"policy":       policyPage,
	"agents":       agents,
	"environment":  environment,
	"threat-model": threatModel,
}
