package policy

import "testing"

// TestDenyAsRead: the person's deny entries hold against every way of
// writing the commands they name (seed 004 §1: an explicit deny wins),
// on autopilot, and not against what they do not name.
func TestDenyAsRead(t *testing.T) {
	p := Parse("policy.toml", []byte(`
[[deny]]
command = "rm -rf /"

[[deny]]
command = "terraform destroy"

[[deny]]
command = "git push --force"

[[deny]]
command = "kubectl delete -n prod"
`))
	if len(p.Problems) > 0 {
		t.Fatal(p.Problems)
	}
	deny := []string{
		"rm -fr /", "rm -r -f /", "rm -Rf /", "rm --recursive --force /", "rm --rec --forc /",
		"rm / -rf", "rm -rf -- /", "rm -rf //", "rm -rf /.", `rm -rf "/"`, `\rm -rf /`, "/bin/rm -rf /",
		"command rm -rf /", "exec rm -rf /", "nice -n 5 rm -rf /", "timeout 5 rm -rf /", "nohup rm -rf / &",
		"sudo -u root rm -rf /", "env -i rm -rf /", "bash -c 'rm -rf /'", "sh -c \"rm -fr /\"",
		"echo / | xargs rm -rf", "true && rm -rf /", "(rm -rf /)", "$(rm -rf /)", "x=$(rm -rf /)",
		`"$(command -v rm)" -fr /`, "$RM -rf /", "rm $FLAGS /",
		"find . -exec rm -rf / \\;", "watch rm -rf /", "timeout -s 9 5 rm -rf /", "doas rm -rf /", "run0 rm -rf /",
		"busybox rm -rf /", "ionice -c3 rm -rf /", "stdbuf -o0 rm -rf /", "time rm -rf /", "eval 'rm -rf /'",
		"env -S 'rm -rf /'", "setsid rm -rf /", "flock /tmp/l rm -rf /", "chronic rm -rf /", "if true; then rm -rf /; fi",
		"for x in 1; do rm -rf /; done", "f() { rm -rf /; }; f", "cat <(rm -rf /)", "rm -rf / 2>/dev/null",
		"terraform -chdir=infra destroy", "terraform destroy -auto-approve", "terraform apply -destroy", "terraform -chdir=x apply --destroy -auto-approve",
		"git push -f origin main", "git -C . push --force", "git push --forc origin main", "git push origin main --force",
		"kubectl -n prod delete pod web", "kubectl delete pod web --namespace=prod", "kubectl delete pod web -nprod",
	}
	for _, c := range deny {
		got, diag := Evaluate(Request{Command: c, Mode: ModeAutopilot, Policy: p, Context: testContext, Wall: Wall{On: true}})
		if got != Deny {
			t.Errorf("Evaluate(%q) on autopilot = %v, want deny: %v", c, got, diag.Reasons)
		}
	}
	for _, c := range []string{"rm -rf build", "rm -r /tmp/x", "terraform plan", "git push origin main", "kubectl delete -n staging pod web", "kubectl get -n prod pods"} {
		got, diag := Evaluate(Request{Command: c, Mode: ModeAutopilot, Policy: p, Context: testContext, Wall: Wall{On: true}})
		if got == Deny {
			t.Errorf("Evaluate(%q) = deny, want the entries not to match: %v", c, diag.Reasons)
		}
	}
}
