package policy

import "github.com/sayso-dev/sayso/internal/risk"

// AutopilotItem is one line of the autopilot list.
type AutopilotItem struct {
	What  string `json:"what"`
	Why   string `json:"why"`
	Class string `json:"class,omitempty"`
}

// AutopilotList says what autopilot releases and what it never releases.
// It is one piece of data, rendered on the card, the mode switch, the
// settings page and by sayso autopilot.
type AutopilotList struct {
	Releases []AutopilotItem `json:"releases"`
	Holds    []AutopilotItem `json:"holds"`
}

// Autopilot is the list. Every ceiling, severe and never class is among
// its holds; a test keeps it so.
var Autopilot = AutopilotList{
	Releases: []AutopilotItem{
		{What: "reading and editing files, in the project and outside it", Why: "autopilot does not hold steps to the project folder"},
		{What: "builds, tests, package installs, the project's own scripts", Why: "local work; the client's sandbox contains what sayso cannot see inside"},
		{What: "git commit, git fetch, git pull, creating and switching local branches", Why: "nothing leaves the machine"},
		{What: "compound commands, pipelines, and steps sayso cannot see through", Why: "autopilot approves everything except the ceilings"},
		{What: "fetches from hosts outside trusted_hosts, web searches", Why: "a plain read of the network"},
		{What: "MCP tools not put in a class, sub-agents within max_parallel", Why: "no ceiling is named for them"},
	},
	Holds: []AutopilotItem{
		{Class: "protected", What: "sayso's own files, binary and hooks; running sayso to answer, grant, forget or change settings", Why: "never: nothing lifts it"},
		{Class: "secret", What: "reading keys, credentials, .env files, shell history, browser profiles", Why: "a secret read cannot be taken back; no reviewer waives it"},
		{Class: "money", What: "tools that pay or charge", Why: "only the person spends money"},
		{Class: "browser", What: "browser automation", Why: "a browser carries the person's logged-in sessions"},
		{Class: "force-remote", What: "git push --force, --mirror, --delete, +refspec", Why: "severe: it rewrites what others see; no \"always\" is offered"},
		{Class: "new-remote", What: "git remote add/set-url, pushing to a URL", Why: "severe: it sends the code somewhere new"},
		{Class: "deploy", What: "kubectl apply, terraform apply, helm upgrade, deploy tasks", Why: "severe: it changes what runs in production"},
		{Class: "publish", What: "npm publish, cargo publish, docker push, gh release create", Why: "a release cannot be unpublished"},
		{Class: "exfil", What: "sending a file or the environment to a host", Why: "data that left cannot be called back"},
		{Class: "download-exec", What: "curl … | sh and other downloaded code run at once", Why: "code nobody read runs with the person's rights"},
		{Class: "privilege", What: "sudo, doas, su, setuid bits", Why: "it runs past the person's own rights"},
		{Class: "instruction-patch", What: "the agents' instruction files (AGENTS.md and the like), agent settings, git hooks, shell start-up files, crontab", Why: "it changes what agents and the shell do next time"},
		{Class: "destructive", What: "rm -rf outside the project, git reset --hard, git clean -fdx, DROP TABLE, dd, mkfs", Why: "it destroys what cannot be restored"},
		{Class: "container-remove", What: "docker rm, docker rmi, docker system prune", Why: "it removes containers and images others may rely on"},
		{Class: "merge", What: "gh pr merge, merging or pushing into a protected branch", Why: "it changes the shared history"},
		{Class: "remote-write", What: "git push, gh pr create, gh issue comment", Why: "it speaks for the person where others see it"},
		{Class: "parallelize", What: "sub-agents past max_parallel", Why: "the person sets how many agents run at once"},
		{What: "an explicit [[deny]] or [[ask]] entry of the policy file, a deny or require_approval autonomy row", Why: "the person's own words win over the mode"},
		{What: "any step of a held session but reading", Why: "the person stopped it, or its circuit breaker tripped"},
	},
}

// holdsClass reports whether the list names c among its holds.
func (l *AutopilotList) holdsClass(c risk.Class) bool {
	for _, h := range l.Holds {
		if h.Class == c.String() {
			return true
		}
	}
	return false
}
