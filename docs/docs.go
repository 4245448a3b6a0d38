// Package docs holds sayso's documentation for the people who use it, and
// embeds the pages that 'sayso help TOPIC' prints, so that the help and
// these files are the same text.
package docs

import (
	_ "embed"
	"sort"
	"strings"
)

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

// TopicNames are the topics in order.
func TopicNames() []string {
	var out []string
	for name := range Topics {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Title is a topic's page heading, its first line without the "# ".
func Title(name string) string {
	first, _, _ := strings.Cut(Topics[name], "\n")
	return strings.TrimPrefix(first, "# ")
}
