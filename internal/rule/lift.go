package rule

import "github.com/sayso-dev/sayso/internal/risk"

// unliftable says why no rule may cover a step of these classes, or "".
func unliftable(classes risk.Set) string {
	for _, c := range classes.Classes() {
		switch {
		case c.Kind() == risk.KindNever:
			return "`" + c.String() + "` is never allowed: nothing lifts it"
		case c.Kind() == risk.KindSevere:
			return "`" + c.String() + "` is severe: no \"always\" is offered for it, the person answers each time"
		case c == risk.Count:
			return "`count`: one step acts on many targets, and no rule covers it"
		}
	}
	for _, c := range classes.Classes() {
		if !c.Liftable() {
			return "`" + c.String() + "` is a class no words lift"
		}
	}
	return ""
}
