package rule

import "github.com/sayso-dev/sayso/internal/risk"

// noWords are the classes no words lift: no rule is offered or counted for
// a step that holds one.
var noWords = []risk.Class{risk.Privilege, risk.Secret, risk.Money, risk.Browser, risk.DownloadExec, risk.Exfil}

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
	for _, c := range noWords {
		if classes.Has(c) {
			return "`" + c.String() + "` is a class no words lift"
		}
	}
	return ""
}
