package policy

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/risk"
	"github.com/sayso-dev/sayso/internal/shell"
)

// TestReadingMatch holds deny and ask patterns against commands as their
// programs read them (seed 004 §1: an explicit deny wins).
func TestReadingMatch(t *testing.T) {
	tests := []struct {
		pattern, cmd string
		want         bool
	}{
		{"rm -rf /", "rm -rf /", true},
		{"rm -rf /", "rm -fr /", true},
		{"rm -rf /", "rm -r -f /", true},
		{"rm -rf /", "rm -f -R /", true},
		{"rm -rf /", "rm / -rf", true},
		{"rm -rf /", "rm --recursive --force /", true},
		{"rm -rf /", "rm --rec --for -- /", true},
		{"rm -rf /", "/bin/rm -rf //", true},
		{"rm -rf /", "sudo rm -rf /", true},
		{"rm -rf /", "rm -r /", false},
		{"rm -rf /", "rm -rf build", false},
		{"rm -rf /", "rm -rf -- -/", false},
		{"terraform destroy", "terraform -chdir=infra destroy", true},
		{"terraform destroy", "terraform destroy -auto-approve", true},
		{"terraform destroy", "terraform -chdir infra destroy", true},
		{"terraform destroy", "env TF_LOG=1 terraform destroy", true},
		{"terraform destroy", "terraform plan -destroy", false},
		{"terraform destroy", "terraform -chdir=infra plan", false},
		{"terraform -chdir=infra destroy", "terraform destroy -chdir=infra", true},
		{"terraform -chdir=infra destroy", "terraform -chdir=prod destroy", false},
		{"terraform apply -auto-approve", "terraform apply --auto-approve", true},
		{"terraform apply --auto-approve", "terraform -auto-approve apply", true},
		{"terraform destroy", "terraform --chdir=infra destroy", true},
		{"kubectl delete -n prod", "kubectl delete pod x -n prod", true},
		{"kubectl delete -n prod", "kubectl -nprod delete pod x", true},
		{"kubectl delete -n prod", "kubectl -n=prod delete pod x", true},
		{"kubectl delete -n prod", "kubectl --context c delete -n staging pod", false},
		{"git push", "git -C . --no-pager push origin main", true},
		{"git push --force", "git push -f origin main", true},
		{"git push --force", "git push --forc origin main", true},
		{"git push --force", "git push origin main", false},
		{"git push origin main", "git push -u origin main", true},
		{"git push origin main", "git push origin feature", false},
		{"docker run -v *", "docker run --rm -v /:/host alpine", true},
		{"npm publish", "npm $ARGS", false},
		{"rm -rf /", "rm $FLAGS /", true},
		{"git push *", "git push", true},
	}
	for _, tt := range tests {
		s := shell.Parse(tt.cmd)
		p := risk.ReadPattern(strings.Fields(tt.pattern))
		got := false
		for i := range s.Segments {
			r := risk.ReadCommand(&s.Segments[i])
			got = got || readingMatch(&p, &r)
		}
		if got != tt.want {
			t.Errorf("pattern %q against %q = %v, want %v", tt.pattern, tt.cmd, got, tt.want)
		}
	}
}

// FuzzReadingMatch: no pattern and no command makes the matcher panic.
func FuzzReadingMatch(f *testing.F) {
	for _, s := range [][2]string{{"rm -rf /", "rm -fr /"}, {"terraform destroy", "terraform -chdir=x apply -destroy"}, {"kubectl delete -n prod", "kubectl -nprod delete"}, {"git push --force", "echo x | xargs git push -f"}, {"x -abc=d -- e", "$X -abc --d=e"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, cmd string) {
		if len(pattern) > 200 || len(cmd) > 400 {
			return
		}
		p := risk.ReadPattern(strings.Fields(pattern))
		s := shell.Parse(cmd)
		for i := range s.Segments {
			r := risk.ReadCommand(&s.Segments[i])
			readingMatch(&p, &r)
			as := risk.ReadCommandAs(&s.Segments[i], p.Program)
			readingMatch(&p, &as)
		}
	})
}
