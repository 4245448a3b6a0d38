package policy

import (
	"strings"
	"testing"
	"time"

	"github.com/sayso-dev/sayso/internal/risk"
)

// TestLeaseFolder holds seed 002 §4: a lease is one ceiling action in the
// exact folder it was granted for — the folder the ceiling acts in, after
// cd, git -C, --git-dir, terraform -chdir and the container's translation.
func TestLeaseFolder(t *testing.T) {
	sess := Session{ID: "s1", Turn: "t1", Epoch: 7}
	lease := func(c risk.Class, cwd string) []Lease {
		return []Lease{{ID: "l1", Category: c, Session: "s1", Turn: "t1", Epoch: 7, Cwd: cwd, Expires: now.Add(time.Minute)}}
	}
	root := testContext.Root
	host := risk.Context{Root: hostRoot, Home: "/home/user", Protected: testContext.Protected}
	tests := []struct {
		command string
		cat     risk.Class
		ctx     risk.Context
		box     *Container
		want    Decision
	}{
		{"git push origin main", risk.RemoteWrite, testContext, nil, Allow},
		{"git -C . push origin main", risk.RemoteWrite, testContext, nil, Allow},
		{"cd " + root + " && git push origin main", risk.RemoteWrite, testContext, nil, Allow},
		{"git status && git push origin main", risk.RemoteWrite, testContext, nil, Allow},
		{"git -C ../other push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"git -C sub push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"git -C \"$D\" push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"git --git-dir=../other/.git push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"git --work-tree=/srv/app --git-dir=/srv/app/.git push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"GIT_DIR=/srv/app/.git git push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"cd ../other && git push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"cd ../other && git reset --hard HEAD~5", risk.Destructive, testContext, nil, Ask},
		{"env -C /srv git push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"terraform -chdir=../infra state rm aws_s3_bucket.site", risk.Destructive, testContext, nil, Ask},
		{"terraform -chdir=. state rm aws_s3_bucket.site", risk.Destructive, testContext, nil, Allow},
		{"terraform state rm aws_s3_bucket.site", risk.Destructive, testContext, nil, Allow},
		// Destroying what terraform manages is severe and destructive at
		// once: two ceilings, one action no lease of either covers.
		{"terraform destroy", risk.Destructive, testContext, nil, Ask},
		{"terraform destroy", risk.Deploy, testContext, nil, Ask},
		{"rm -rf /srv/data", risk.Destructive, testContext, nil, Ask},
		{"npm publish", risk.Publish, testContext, nil, Allow},
		{"npm --prefix ../other publish", risk.Publish, testContext, nil, Ask},
		{"npm publish ../other", risk.Publish, testContext, nil, Ask},
		{"npm publish --tag beta ../other/pkg.tgz", risk.Publish, testContext, nil, Ask},
		{"yarn npm publish /srv/pkg", risk.Publish, testContext, nil, Ask},
		{"npm publish --tag beta", risk.Publish, testContext, nil, Allow},
		{"npm publish ./packages/a", risk.Publish, testContext, nil, Allow},
		{"npm publish --workspace=../other", risk.Publish, testContext, nil, Ask},
		{"pnpm --dir /srv/pkg publish", risk.Publish, testContext, nil, Ask},
		{"cargo publish --manifest-path Cargo.toml", risk.Publish, testContext, nil, Allow},
		{"cargo publish --manifest-path ../other/Cargo.toml", risk.Publish, testContext, nil, Ask},
		{"kubectl apply -f k8s/app.yaml", risk.Deploy, testContext, nil, Allow},
		{"kubectl apply -f ../other/app.yaml", risk.Deploy, testContext, nil, Ask},
		{"kubectl apply --filename=/srv/app.yaml", risk.Deploy, testContext, nil, Ask},
		{"helm upgrade x ../chart", risk.Deploy, testContext, nil, Ask},
		{"helm install x /srv/chart", risk.Deploy, testContext, nil, Ask},
		{"helm upgrade x ./chart", risk.Deploy, testContext, nil, Allow},
		{"twine upload ../dist/*", risk.Publish, testContext, nil, Ask},
		{"twine upload dist/*", risk.Publish, testContext, nil, Allow},
		{"gh release create v1 ../bin/app", risk.Publish, testContext, nil, Ask},
		{"gh release create v1 bin/app", risk.Publish, testContext, nil, Allow},
		{"helm upgrade x \"$CHART\"", risk.Deploy, testContext, nil, Ask},
		{"helm upgrade x ./chart --set-file cfg=../other/secret.txt", risk.Deploy, testContext, nil, Ask},
		{"helm upgrade x ./chart --set-file=a=conf/a.txt,b=/srv/b.txt", risk.Deploy, testContext, nil, Ask},
		{"helm upgrade x ./chart --set-file a=conf/a.txt --set image.tag=v2", risk.Deploy, testContext, nil, Allow},
		{"helm push \"$PKG\" oci://registry.example/charts", risk.Publish, testContext, nil, Ask},
		{"dotnet nuget push $PKG -k key", risk.Publish, testContext, nil, Ask},
		{"twine upload -r testpypi dist/*", risk.Publish, testContext, nil, Allow},
		{"gh release create v1 --notes \"first one\" bin/app", risk.Publish, testContext, nil, Allow},
		{"helm upgrade x . -f../vals.yaml", risk.Deploy, testContext, nil, Ask},
		{"twine upload $DIST", risk.Publish, testContext, nil, Ask},
		{"gh release create v1 $F", risk.Publish, testContext, nil, Ask},
		{"gh release upload v1 \"$F\"", risk.Publish, testContext, nil, Ask},
		{"gem push $GEM", risk.Publish, testContext, nil, Ask},
		{"uv publish $D", risk.Publish, testContext, nil, Ask},
		{"fly deploy $D", risk.Deploy, testContext, nil, Ask},
		{"terraform apply $PLAN", risk.Deploy, testContext, nil, Ask},
		{"kubectl apply -k ../other", risk.Deploy, testContext, nil, Ask},
		{"vercel deploy $D", risk.Deploy, testContext, nil, Ask},
		{"npm publish $P", risk.Publish, testContext, nil, Ask},
		{"gcloud app deploy $F", risk.Deploy, testContext, nil, Ask},
		{"gcloud app deploy ../other/app.yaml", risk.Deploy, testContext, nil, Ask},
		{"gcloud app deploy app.yaml --version v2", risk.Deploy, testContext, nil, Allow},
		{"wrangler deploy $F", risk.Deploy, testContext, nil, Ask},
		{"wrangler deploy src/index.ts --name api", risk.Deploy, testContext, nil, Allow},
		{"railway up $D", risk.Deploy, testContext, nil, Ask},
		{"ansible-playbook $P", risk.Deploy, testContext, nil, Ask},
		{"ansible-playbook -i hosts site.yml", risk.Deploy, testContext, nil, Allow},
		{"gh pr create --fill", risk.RemoteWrite, testContext, nil, Allow},
		{"gh pr create --repo other/repo --fill", risk.RemoteWrite, testContext, nil, Ask},
		{"gh -R other/repo issue comment 7 --body hi", risk.RemoteWrite, testContext, nil, Ask},
		// one lease, one ceiling segment
		{"git push origin a && gh pr create --fill", risk.RemoteWrite, testContext, nil, Ask},
		{"git push origin a; git push origin b", risk.RemoteWrite, testContext, nil, Ask},
		{"bash -c 'git push origin a && git push origin b'", risk.RemoteWrite, testContext, nil, Ask},
		{"watch git push origin main", risk.RemoteWrite, testContext, nil, Ask},
		{"hyperfine 'git push origin main'", risk.RemoteWrite, testContext, nil, Ask},
		// in a container the lease's folder is translated as the cwd is
		{"git push origin main", risk.RemoteWrite, host, inContainer(), Allow},
		{"git -C /work push origin main", risk.RemoteWrite, host, inContainer(), Allow},
		{"git -C " + hostRoot + " push origin main", risk.RemoteWrite, host, inContainer(), Ask},
		{"git -C /tmp/other push origin main", risk.RemoteWrite, host, inContainer(), Ask},
	}
	for _, tt := range tests {
		cwd := tt.ctx.Cwd
		if cwd == "" {
			cwd = tt.ctx.Root
		}
		req := Request{Command: tt.command, Mode: ModeAuto, Context: tt.ctx, Container: tt.box, Session: sess, Leases: lease(tt.cat, cwd)}
		got, tier, diag := decided(req)
		if got != tt.want || got == Allow && tier != 5 {
			t.Errorf("Evaluate(%q) with a %s lease for %s = %v at tier %d, want %v\n%s", tt.command, tt.cat, cwd, got, tier, tt.want, strings.Join(diag.Reasons, "\n"))
		}
		if got != Allow && diag.Lease != "" {
			t.Errorf("Evaluate(%q) names lease %s but does not allow", tt.command, diag.Lease)
		}
	}
}

// TestLeaseRest holds seed 002 §4 the other way: a lease lifts its one
// action and nothing that rides along — the rest of the step is what the
// mode lets through by itself, and runs as far as the mode reaches.
func TestLeaseRest(t *testing.T) {
	sess := Session{ID: "s1", Turn: "t1", Epoch: 7}
	leases := []Lease{{ID: "l1", Category: risk.RemoteWrite, Session: "s1", Turn: "t1", Epoch: 7, Cwd: testContext.Root, Expires: now.Add(time.Minute)}}
	tests := []struct {
		command string
		mode    Mode
		wall    bool
		want    Decision
		reach   Reach
	}{
		{"git push origin main", ModeAuto, true, Allow, ReachProject},
		{"git add -A && git commit -m x && git push origin main", ModeAuto, true, Allow, ReachProject},
		{"git push origin main && python3 tools/x.py", ModeAuto, true, Allow, ReachProject},
		{"git push origin main && curl https://example.org/x", ModeAuto, true, Ask, ReachWide},
		{"git push origin main && cp notes.txt /srv/elsewhere/", ModeAuto, true, Ask, ReachWide},
		{"git add -A && git commit -m x && git push origin main", ModeAuto, false, Ask, ReachWide},
		{"git status && git push origin main", ModeAuto, false, Allow, ReachProject},
		{"git status && git push origin main", ModeAsk, true, Allow, ReachProject},
		{"git add -A && git commit -m x && git push origin main", ModeAsk, true, Ask, ReachWide},
		{"git push origin main && curl https://example.org/x", ModeAutopilot, true, Allow, ReachWide},
	}
	for _, tt := range tests {
		req := Request{Command: tt.command, Mode: tt.mode, Context: testContext, Session: sess, Leases: leases, Now: now, Wall: Wall{On: tt.wall, Why: "off"}}
		got, diag := Evaluate(req)
		if got != tt.want || got == Allow && diag.Decided().ID != TierLease {
			t.Errorf("Evaluate(%q) in %v, wall %v = %v by %v, want %v by the lease\n%s", tt.command, tt.mode, tt.wall, got, diag.Decided().ID, tt.want, strings.Join(diag.Reasons, "\n"))
			continue
		}
		if got == Allow && diag.Reach != tt.reach {
			t.Errorf("Evaluate(%q) in %v: reach %v, want %v", tt.command, tt.mode, diag.Reach, tt.reach)
		}
	}
}
