package cli

import "github.com/sayso-dev/sayso/docs"

// The long topics of 'sayso help' are the pages in docs/, embedded.
func init() {
	for name, text := range docs.Topics {
		helpTopics[name] = text
	}
}
