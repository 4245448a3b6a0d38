package rule

import (
	"errors"
	"fmt"
	"strings"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// A rule of unit verb is either a unit followed by " *" — the verb, or the
// verb and its subcommand, with any arguments after it (npm test *, cat *)
// — or a segment kept exactly (ls -la, git remote -v).

// verbPattern reads a rule of unit verb.
func verbPattern(text string) (pattern, error) {
	body, star := strings.CutSuffix(text, " *")
	if strings.Contains(body, "*") {
		return pattern{}, errors.New("in unit verb, * only stands as the last word, for the arguments that follow the unit")
	}
	words, err := plainWords(body)
	if err != nil {
		return pattern{}, err
	}
	if why := broad(words); why != "" {
		return pattern{}, errors.New(why)
	}
	p := pattern{unit: UnitVerb, words: words, star: star}
	if !star && len(words) == 1 {
		return pattern{}, fmt.Errorf("a program alone (%s) is too broad", words[0])
	}
	if !star {
		return p, nil
	}
	if len(words) > 2 {
		return pattern{}, errors.New("a verb unit is the verb and at most its subcommand")
	}
	if len(words) == 2 && !subcommand(words[1]) {
		return pattern{}, fmt.Errorf("%s is not a subcommand: a verb with a flag or a path stays exact", quote(words[1]))
	}
	if c := ceilingUnder(words); c != "" {
		return pattern{}, fmt.Errorf("%s is a prefix of the ceiling %s: it stays exact", quote(strings.Join(words, " ")), quote(c))
	}
	return p, nil
}

// subcommand reports whether v reads as a subcommand rather than an
// argument: a lowercase word. Doubt falls on the narrow side, so a word
// that could be either is a subcommand.
func subcommand(v string) bool {
	if v == "" || v[0] < 'a' || v[0] > 'z' {
		return false
	}
	for i := 1; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == ':') {
			return false
		}
	}
	return true
}

// ceilingUnder returns a ceiling step whose words start with unit, or "".
func ceilingUnder(unit []string) string {
	for _, c := range ceilings {
		cw := strings.Fields(c)
		if len(cw) < len(unit) {
			continue
		}
		ok := true
		for i, w := range unit {
			if cw[i] != w {
				ok = false
				break
			}
		}
		if ok {
			return c
		}
	}
	return ""
}

// ceilings are steps of a ceiling class, by the words that start them. A
// verb unit that starts one of them would lift it: it stays exact.
var ceilings = []string{
	"git push", "git merge", "git remote add", "git remote set-url", "git reset --hard",
	"git clean -fdx", "git branch -D", "git tag -d", "git rebase", "git filter-repo",
	"git send-email", "git update-ref", "git config", "git gc --prune",
	"gh pr create", "gh pr merge", "gh pr comment", "gh pr close", "gh pr review",
	"gh issue create", "gh issue comment", "gh issue close", "gh release create",
	"gh repo create", "gh repo delete", "gh api", "gh secret", "gh workflow run",
	"gh gist create", "gh auth",
	"npm publish", "npm unpublish", "npm deprecate", "npm dist-tag", "npm login",
	"yarn publish", "pnpm publish", "cargo publish", "cargo yank", "twine upload",
	"gem push", "poetry publish", "flit publish", "hatch publish", "uv publish",
	"docker push", "docker rm", "docker rmi", "docker system prune", "docker image prune",
	"docker container prune", "docker volume rm", "docker volume prune", "docker network rm",
	"docker login", "podman push", "podman rm", "podman rmi", "podman system prune",
	"kubectl apply", "kubectl delete", "kubectl create", "kubectl patch", "kubectl edit",
	"kubectl scale", "kubectl rollout", "kubectl replace", "kubectl set", "kubectl drain",
	"kubectl label", "kubectl annotate", "kubectl cordon",
	"terraform apply", "terraform destroy", "terraform import", "terraform state rm",
	"tofu apply", "tofu destroy", "pulumi up", "pulumi destroy",
	"helm install", "helm upgrade", "helm uninstall", "helm rollback",
	"fly deploy", "flyctl deploy", "vercel --prod", "vercel deploy", "netlify deploy",
	"heroku releases", "firebase deploy", "wrangler deploy", "wrangler publish",
	"serverless deploy", "sls deploy", "cdk deploy", "cdk destroy", "sam deploy",
	"aws s3 rm", "aws s3 cp", "aws s3 sync", "aws s3 mv", "aws ec2 terminate-instances",
	"aws cloudformation deploy", "aws lambda update-function-code",
	"gcloud app deploy", "gcloud run deploy", "gcloud functions deploy", "gcloud compute instances delete",
	"az webapp deploy", "az group delete",
	"dd if", "mkfs", "chmod u+s", "chmod +s", "chmod 4755", "crontab -e", "crontab -r",
	"psql -c", "mysql -e", "sqlite3",
}

// coverable says why segment seg cannot be covered by a verb rule, or "".
func coverable(seg *shell.Segment) string {
	switch {
	case len(seg.Opaque) > 0:
		return "sayso cannot see what it runs: " + seg.Opaque[0].Why
	case len(seg.Wrappers) > 0:
		return "a wrapper (" + seg.Wrappers[0] + ") runs it"
	case len(seg.Assigns) > 0:
		return "an assignment (" + seg.Assigns[0].Name + "=) comes with it"
	case seg.Many || seg.Loop:
		return "it runs many times"
	case len(seg.Args) == 0:
		return "it is a redirect or an assignment alone"
	}
	for _, r := range seg.Redirs {
		if !harmless(r) {
			return "a redirect (" + r.Fd + r.Op + r.Target.Raw + ") comes with it"
		}
	}
	for _, w := range seg.Args {
		if len(w.Params) > 0 || !w.Literal || w.Tilde {
			return "an argument (" + w.Raw + ") is known only when it runs"
		}
	}
	if why := wordProblem(seg.Args[0]); why != "" {
		return why
	}
	return ""
}

// harmless reports whether a redirect only joins streams or discards one.
func harmless(r shell.Redirect) bool {
	switch r.Op {
	case ">&", "<&":
		return r.Target.Literal && (r.Target.Value == "-" || strings.Trim(r.Target.Value, "0123456789") == "" && r.Target.Value != "")
	case ">", ">>", "&>", "&>>", "<":
		return r.Target.Literal && r.Target.Value == "/dev/null"
	}
	return false
}

// verbCovers reports whether verb pattern p covers segment seg, which
// coverable accepts.
func verbCovers(p *pattern, seg *shell.Segment) bool {
	args := seg.Args
	if len(args) < len(p.words) || !p.star && len(args) != len(p.words) {
		return false
	}
	for i, w := range p.words {
		if args[i].Value != w || wordProblem(args[i]) != "" {
			return false
		}
	}
	return true
}

// ceilingIn returns the first ceiling class in s.
func ceilingIn(s risk.Set) (risk.Class, bool) {
	for _, c := range s.Classes() {
		if c.Ceiling() {
			return c, true
		}
	}
	return risk.Opaque, false
}

// verbOffer keeps one rule per segment of s: the verb and its subcommand
// with any arguments; the verb alone when the argument after it is not a
// plain word; the segment exactly when a flag follows the verb or the unit
// starts a ceiling; nothing when even the exact segment is a ceiling.
func verbOffer(s Step) ([]Rule, string) {
	sc := s.script()
	if len(sc.Opaque) > 0 {
		return nil, "sayso cannot read the command: " + sc.Opaque[0].Why
	}
	var out []Rule
	var skipped []string
	seen := map[string]bool{}
	for i := range sc.Segments {
		seg := &sc.Segments[i]
		text, why := verbUnit(&s.Assessment, i, seg)
		if why != "" {
			skipped = append(skipped, segText(seg)+": "+why)
			continue
		}
		r := Rule{Tool: s.Tool, Unit: UnitVerb, Pattern: text, Cwd: s.Cwd}
		if err := Validate(r); err != nil {
			skipped = append(skipped, segText(seg)+": "+strings.TrimPrefix(err.Error(), "rule "+quote(text)+": "))
			continue
		}
		if !seen[text] {
			seen[text] = true
			out = append(out, r)
		}
	}
	if len(out) == 0 && len(skipped) == 0 {
		return nil, "there is no command"
	}
	return out, strings.Join(skipped, "; ")
}

// verbUnit returns the verb pattern for segment i, or why none is kept.
func verbUnit(a *risk.Assessment, i int, seg *shell.Segment) (string, string) {
	if why := coverable(seg); why != "" {
		return "", why
	}
	if c, ok := ceilingIn(a.SegmentClasses(i)); ok {
		return "", "`" + c.String() + "` is a ceiling, and a verb rule never lifts one"
	}
	args := seg.Args
	if why := broad(shell.Words(args)); why != "" {
		return "", why
	}
	unit := []string{args[0].Value}
	exact := false
	switch {
	case len(args) == 1:
	case strings.HasPrefix(args[1].Value, "-"):
		exact = true
	case subcommand(args[1].Value) && wordProblem(args[1]) == "":
		unit = append(unit, args[1].Value)
	}
	if !exact && ceilingUnder(unit) != "" {
		exact = true
	}
	if !exact {
		return strings.Join(unit, " ") + " *", ""
	}
	words := make([]string, len(args))
	for k, w := range args {
		if why := wordProblem(w); why != "" {
			return "", "it stays exact, and " + why
		}
		words[k] = w.Value
	}
	return strings.Join(words, " "), ""
}

func segText(seg *shell.Segment) string {
	parts := make([]string, len(seg.Args))
	for i, w := range seg.Args {
		parts[i] = w.Raw
	}
	t := strings.Join(parts, " ")
	if t == "" {
		t = "a redirect"
	}
	return quote(t)
}
