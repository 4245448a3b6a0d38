// Cloud CLIs and deploy platforms: terraform, aws, gcloud, az, fly, vercel and the like.

package risk

import (
	"slices"
	"strings"

	"github.com/sayso-dev/sayso/internal/program"
	"github.com/sayso-dev/sayso/internal/shell"
)

// awsFamily: aws, its --dry-run forms read before the rest.
func awsFamily() family {
	return family{names: []string{"aws"}, before: awsDryRun, classify: aws}
}

// rcloneFamily copies to and from storage remotes; a copy of the home is
// a secret leaving.
func rcloneFamily() family {
	return family{names: []string{"rclone"}, traits: program.Remote, classify: rclone, after: copiesHome}
}

func terraformFamily() family {
	return family{names: []string{"terraform", "tofu", "terragrunt"}, classify: terraform}
}

func terraform(c *cmd) {
	for _, a := range c.args {
		if !a.Literal {
			if strings.Contains(a.Raw, "chdir") {
				c.a.actsIn(c.i, "") // a folder built at run time
			}
			continue
		}
		if !strings.HasPrefix(a.Value, "-") {
			break // the subcommand: -chdir comes before it
		}
		v, ok := strings.CutPrefix(a.Value, "-chdir=")
		if !ok {
			v, ok = strings.CutPrefix(a.Value, "--chdir=")
		}
		if ok {
			// Terraform works in that folder: its state, its plan.
			c.a.actsInWord(c.i, shell.Word{Raw: v, Value: v, Literal: true, Tilde: strings.HasPrefix(v, "~")})
		}
	}
	w := c.words(2)
	n := c.name + " " + w[0]
	switch w[0] {
	case "output":
		// terraform output(1): every output is redacted only when all are
		// listed plainly; -json, -raw and an output named print sensitive
		// values in plain text, and the command cannot say which names are.
		if c.has("-json", "--json", "-raw", "--raw") || len(c.operands()) > 1 {
			c.add(Secret, PrintsCredential.By(n, "", ""))
			return
		}
		c.add(Read, OnlyReads.By(n, "", ""))
	case "show":
		// terraform show -json prints the state or plan with sensitive
		// values in plain text; the human form redacts them.
		if c.has("-json", "--json") {
			c.add(Secret, PrintsCredential.By(n, "-json", ""))
			return
		}
		c.add(Read, OnlyReads.By(n, "", ""))
	case "plan", "graph", "providers", "version", "validate", "console", "get", "-version", "":
		c.add(Read, OnlyReads.By(n, "", ""))
	case "init", "fmt", "test", "login", "logout", "metadata", "modules":
		c.add(LocalWrite, LocalWork.By(n, "", ""))
		c.cwdWrite()
	case "destroy":
		c.lasting(Reason{Kind: DeletesWhole, Program: n, What: "the infrastructure it manages"})
	case "apply":
		if c.has("-destroy", "--destroy") {
			c.lasting(Reason{Kind: DeletesWhole, Program: n, Verb: "-destroy", What: "the infrastructure it manages"})
			return
		}
		c.add(Deploy, Deploys.By(n, "", ""))
		c.worksOn(1, "-var", "-var-file", "-target", "-replace", "-parallelism", "-lock-timeout", "-state", "-state-out", "-backup") // the plan it applies
	case "state":
		switch w[1] {
		case "pull":
			c.add(Secret, PrintsCredential.By(n, "pull", ""))
		case "list", "show":
			c.add(Read, OnlyReads.By(n, w[1], ""))
		case "rm":
			c.add(Destructive, Destroys.By(n, "rm", ""))
		default:
			c.add(Deploy, Deploys.By(n, w[1], ""))
		}
	case "workspace":
		if !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By(n, c.written(2), ""))
			return
		}
		switch w[1] {
		case "list", "show":
			c.add(Read, OnlyReads.By(n, w[1], ""))
		case "delete":
			c.add(Destructive, Destroys.By(n, "delete", ""))
		case "new", "select", "":
			c.add(LocalWrite, LocalWork.By(n, w[1], ""))
		default:
			c.add(Opaque, UnknownVerb.By(n+" workspace", w[1], ""))
		}
	default:
		c.add(Deploy, Deploys.By(n, "", ""))
	}
}

func pulumiFamily() family {
	return family{names: []string{"pulumi"}, classify: pulumi}
}

func pulumi(c *cmd) {
	w := c.words(2)
	// pulumi stack output, config and stack export print secrets as
	// [secret] or ciphertext unless --show-secrets; config get decrypts
	// the value it names; env open resolves an environment's secrets.
	if c.has("--show-secrets") || w[0] == "config" && w[1] == "get" || w[0] == "env" && w[1] == "open" {
		c.add(Secret, PrintsCredential.By(strings.TrimSpace("pulumi "+w[0]+" "+w[1]), "", ""))
		return
	}
	switch w[0] {
	case "stack", "config":
		if !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By("pulumi", c.written(2), ""))
			return
		}
		pulumiGroup(c, w[0], w[1], c.words(3)[2])
	case "preview", "whoami", "version", "about", "logs", "":
		c.add(Read, OnlyReads.By("pulumi", w[0], ""))
	case "destroy":
		c.lasting(Reason{Kind: DeletesWhole, Program: "pulumi", Verb: "destroy", What: "the stack"})
	default:
		c.add(Deploy, Deploys.By("pulumi", w[0], ""))
	}
}

// pulumiGroup classifies the command verb of pulumi stack or pulumi
// config (pulumi stack --help, pulumi config --help); next is the word
// after it, stack tag's and config env's command.
func pulumiGroup(c *cmd, group, verb, next string) {
	where := "pulumi " + group
	switch {
	case verb == "rm" || verb == "remove":
		c.add(Destructive, Destroys.By(where, verb, ""))
	case verb == "" || group == "stack" && (verb == "ls" || verb == "output" || verb == "history" || verb == "export"):
		c.add(Read, OnlyReads.By(where, verb, ""))
	case (verb == "tag" || verb == "env") && !c.literalWords(3):
		c.add(Opaque, UnknownVerb.By(where, c.written(3), ""))
	case verb == "tag" && (next == "ls" || next == "get" || next == ""), verb == "env" && (next == "ls" || next == ""):
		c.add(Read, OnlyReads.By(where, verb+" "+next, ""))
	case group == "stack" && (verb == "select" || verb == "unselect" || verb == "graph"),
		group == "config" && (verb == "set" || verb == "set-all" || verb == "rm-all" || verb == "cp" || verb == "refresh" || verb == "env"):
		// The stack's settings file (Pulumi.<stack>.yaml), the stack
		// in use, a graph's file.
		c.add(LocalWrite, LocalWork.By(where, verb, ""))
	case group == "stack" && (verb == "init" || verb == "rename" || verb == "import" || verb == "tag" || verb == "change-secrets-provider"):
		c.add(RemoteWrite, ChangesServer.By(where, verb, ""))
	default:
		c.add(Opaque, UnknownVerb.By(where, verb, ""))
	}
}

// cloudVerb classifies a cloud CLI's operation by the verb its name starts
// with: list/describe/get read, delete destroys, anything else changes.
func (c *cmd) cloudVerb(label, op string) {
	op = strings.ToLower(op)
	switch {
	case op == "" || op == "help" || strings.HasPrefix(op, "list") || strings.HasPrefix(op, "describe") || strings.HasPrefix(op, "get") ||
		strings.HasPrefix(op, "show") || op == "ls" || strings.HasPrefix(op, "wait") || op == "version" || op == "info" ||
		strings.HasPrefix(op, "search") || strings.HasPrefix(op, "lookup") || strings.HasPrefix(op, "query") || strings.HasPrefix(op, "filter") ||
		op == "whoami" || op == "status" || op == "exists" || strings.HasPrefix(op, "head-") || strings.HasPrefix(op, "validate") || strings.HasPrefix(op, "test-") ||
		strings.HasPrefix(op, "check") || strings.HasPrefix(op, "scan") || strings.HasPrefix(op, "estimate") || strings.HasPrefix(op, "simulate") || op == "logs" || op == "tail":
		c.add(Read, OnlyReads.By(label, op, ""))
	case strings.HasPrefix(op, "delete") || strings.HasPrefix(op, "remove") || strings.HasPrefix(op, "terminate") ||
		strings.HasPrefix(op, "destroy") || strings.HasPrefix(op, "purge") || strings.HasPrefix(op, "deregister") ||
		strings.HasPrefix(op, "disable") || op == "rm" || op == "rb" || strings.HasPrefix(op, "drop") || strings.HasPrefix(op, "revoke"):
		c.add(Destructive, Destroys.By(label, op, ""))
	default:
		c.add(Deploy, Deploys.By(label, op, ""))
	}
}

func aws(c *cmd) {
	w := c.words(3)
	svc, op := w[0], w[1]
	if !c.literalWords(2) {
		// The operation is a variable: cloudVerb would take "" for none.
		c.add(Opaque, UnknownVerb.By("aws", c.written(2), ""))
		return
	}
	switch {
	case svc == "s3":
		awsS3(c, op, w[2])
	case svc == "configure" && op == "get" && secretVar(w[2]):
		c.add(Secret, PrintsCredential.By("aws configure get", w[2], ""))
	case svc == "configure" && op == "export-credentials":
		c.add(Secret, PrintsCredential.By("aws", "configure export-credentials", ""))
	case svc == "sts" && (strings.HasPrefix(op, "assume-role") || op == "get-session-token" || op == "get-federation-token"):
		c.add(Secret, PrintsCredential.By("aws sts", op, ""))
	case svc == "sts" || svc == "configure" && (op == "list" || op == "get" || op == "list-profiles"):
		c.add(Read, OnlyReads.By("aws", svc+" "+op, ""))
	case svc == "configure":
		c.add(Secret, StoresCredential.By("aws", "configure", ""))
	case op == "get-secret-value" || op == "get-login-password" || op == "get-authorization-token" || op == "get-session-token" ||
		svc == "ssm" && strings.HasPrefix(op, "get-parameter") && c.has("--with-decryption") || op == "decrypt" || op == "get-credentials-for-identity" || op == "get-password-data" ||
		op == "batch-get-secret-value" || svc == "rds" && op == "generate-db-auth-token":
		c.add(Secret, PrintsCredential.By("aws", svc+" "+op, ""))
	case svc == "lambda" && (op == "get-function-configuration" || op == "get-function") || svc == "ecs" && op == "describe-task-definition":
		// a function's or a task's configuration carries its environment
		// variables, the keys it was deployed with among them
		c.add(Secret, PrintsCredential.By("aws", svc+" "+op, ""))
	case svc == "deploy" || svc == "cloudformation" && (op == "deploy" || op == "create-stack" || op == "update-stack"):
		c.add(Deploy, Deploys.By("aws", svc+" "+op, ""))
	case svc == "ecr" && op == "put-image" || svc == "codeartifact" && strings.HasPrefix(op, "publish"):
		c.add(Publish, Publishes.By("aws", svc+" "+op, ""))
	case slices.Contains(awsLasting[svc], op):
		c.lasting(Reason{Kind: DeletesWhole, Program: "aws " + svc, Verb: op, What: "a resource"})
	default:
		c.cloudVerb("aws "+svc, op)
	}
}

// awsLasting are the aws operations, by service, that delete a cluster, a
// database, a bucket or a stack whole (each from its aws CLI reference).
var awsLasting = map[string][]string{
	"rds":            {"delete-db-instance", "delete-db-cluster", "delete-global-cluster"},
	"eks":            {"delete-cluster"},
	"ecs":            {"delete-cluster"},
	"s3api":          {"delete-bucket"},
	"dynamodb":       {"delete-table"},
	"redshift":       {"delete-cluster"},
	"docdb":          {"delete-db-cluster"},
	"cloudformation": {"delete-stack"},
}

func awsS3(c *cmd, op, first string) {
	ops := c.operands()
	var dst string
	if len(ops) > 0 {
		dst = ops[len(ops)-1].Value
	}
	switch op {
	case "ls", "presign", "":
		c.add(Read, OnlyReads.By("aws s3", op, ""))
	case "rb":
		c.lasting(Reason{Kind: DeletesWhole, Program: "aws s3", Verb: "rb", What: "a bucket"})
	case "rm":
		c.add(Destructive, Destroys.By("aws", "s3 rm", ""))
	case "mb", "website":
		c.add(RemoteWrite, ChangesServer.By("aws s3", op, ""))
	case "cp", "mv", "sync":
		if strings.HasPrefix(dst, "s3://") {
			if op == "sync" && c.has("--delete") {
				c.add(Destructive, Destroys.By("aws", "s3 sync --delete", ""))
			}
			if op == "mv" && len(ops) > 2 && strings.HasPrefix(ops[len(ops)-2].Value, "s3://") {
				c.add(Destructive, Destroys.By("aws", "s3 mv", ""))
			}
			c.add(RemoteWrite, ChangesServer.By("aws s3", op, dst))
			for _, w := range ops[1 : len(ops)-1] {
				if !strings.HasPrefix(w.Value, "s3://") {
					c.path(OpRead, w)
				}
			}
			return
		}
		c.add(LocalWrite, SavesDownload.By("aws s3", op, ""))
		if len(ops) > 0 {
			c.write(ops[len(ops)-1])
		}
	default:
		c.add(Deploy, Deploys.By("aws s3", op, ""))
	}
}

func gcloudFamily() family {
	return family{names: []string{"gcloud"}, classify: gcloud}
}

func gcloud(c *cmd) {
	var ws []string
	for _, w := range c.words(6) {
		if w != "" {
			ws = append(ws, w)
		}
	}
	for _, w := range ws {
		switch w {
		case "print-access-token", "print-identity-token", "print-refresh-token", "get-credentials", "access":
			if w == "access" && !contains(ws, "versions") {
				continue
			}
			c.add(Secret, PrintsCredential.By("gcloud", w, ""))
			return
		}
	}
	if len(ws) > 0 && ws[0] == "config" {
		if !c.literalWords(3) {
			// gcloud config set given by a variable may name a
			// program to run or a file of credentials.
			c.add(Opaque, UnknownVerb.By("gcloud", c.written(3), ""))
			return
		}
		if contains(ws, "virtualenv") && !contains(ws, "describe") && !contains(ws, "is-enabled") {
			c.add(InstructionPatch, RunsLater.By("gcloud", "config virtualenv", ""))
			return
		}
		if contains(ws, "set") || contains(ws, "unset") || contains(ws, "configurations") && (contains(ws, "activate") || contains(ws, "create") || contains(ws, "delete") || contains(ws, "rename")) {
			c.add(LocalWrite, ChangesLocalSettings.By("gcloud", "config", ""))
			// the person's configuration: which project, account and region
			// their next gcloud acts on
			c.installsForMachine(c.envDir("CLOUDSDK_CONFIG", "configurations", "~/.config/gcloud/configurations"), c.envDir("CLOUDSDK_CONFIG", "active_config", "~/.config/gcloud/active_config"))
			if i := slices.Index(ws, "set"); i >= 0 && (i+1 >= len(ws) || !inertGcloudProperty(ws[i+1])) {
				c.add(InstructionPatch, RunsLater.By("gcloud", "config set", ""))
			}
			return
		}
		c.add(Read, OnlyReads.By("gcloud", "config", ""))
		return
	}
	if len(ws) > 0 && ws[0] == "auth" {
		if contains(ws, "list") {
			c.add(Read, OnlyReads.By("gcloud", "auth list", ""))
			return
		}
		c.add(Secret, StoresCredential.By("gcloud", "auth", ""))
		return
	}
	if r := gcloudLasting(ws, c.has("--recursive", "-r", "-R")); r.Kind != ReasonUnknown {
		c.lasting(r)
		return
	}
	for _, w := range ws {
		if w == "deploy" {
			c.add(Deploy, Deploys.By("gcloud", "deploy", ""))
			if len(ws) > 1 && ws[0] == "app" && ws[1] == "deploy" {
				c.worksOn(2, "-v", "--version", "--bucket", "--image-url", "--appyaml", "--service-account", "--ignore-file",
					"--verbosity", "--impersonate-service-account", "--configuration", "--billing-project", "--flags-file",
					"--trace-token") // the app.yaml files it deploys
			}
			return
		}
	}
	op := ""
	if len(ws) > 0 {
		op = ws[len(ws)-1]
		for _, w := range ws {
			if cloudVerbWord(w) || w == "rm" {
				op = w
				break
			}
		}
	}
	c.cloudVerb("gcloud", op)
}

// gcloudLasting says why a gcloud command deletes a cluster, a database, a
// bucket or a project whole (each from its gcloud reference page), or
// the zero Reason.
// ws are its words without the options; recursive is storage rm's -r.
func gcloudLasting(ws []string, recursive bool) Reason {
	at := func(group ...string) bool {
		for i := 0; i+len(group) <= len(ws); i++ {
			if slices.Equal(ws[i:i+len(group)], group) {
				return true
			}
		}
		return false
	}
	for _, g := range [][]string{{"container", "clusters"}, {"sql", "instances"}, {"sql", "databases"}, {"storage", "buckets"},
		{"spanner", "instances"}, {"spanner", "databases"}, {"alloydb", "clusters"}, {"firestore", "databases"}, {"projects"}} {
		if at(append(g, "delete")...) {
			return Reason{Kind: DeletesWhole, Program: "gcloud " + strings.Join(g, " "), Verb: "delete", What: "a resource"}
		}
	}
	if at("storage", "rm") && recursive {
		return Reason{Kind: DeletesWhole, Program: "gcloud storage", Verb: "rm --recursive", What: "what lies under the URL"}
	}
	return Reason{}
}

func cloudVerbWord(w string) bool {
	for _, p := range []string{"list", "describe", "get", "delete", "create", "update", "set", "add", "remove", "deploy", "apply",
		"start", "stop", "restart", "resize", "import", "export", "patch", "enable", "disable", "run", "submit", "ssh", "scp", "connect", "show"} {
		if w == p || strings.HasPrefix(w, p+"-") {
			return true
		}
	}
	return false
}

func contains(ws []string, s string) bool {
	for _, w := range ws {
		if w == s {
			return true
		}
	}
	return false
}

// azCommand is the last word of az's command path, the words before the
// first option: az takes no operands but its options' values.
func azCommand(c *cmd) string {
	last := ""
	for _, w := range c.args {
		if strings.HasPrefix(w.Value, "-") {
			break
		}
		last = w.Value
	}
	return last
}

func gsutilFamily() family {
	return family{names: []string{"gsutil"}, classify: gsutil}
}

func gsutil(c *cmd) {
	for len(c.args) > 0 && strings.HasPrefix(c.args[0].Value, "-") {
		if v := c.args[0].Value; (v == "-o" || v == "-h" || v == "-u") && len(c.args) > 1 {
			c.args = c.args[1:]
		}
		c.args = c.args[1:]
	}
	w := c.words(1)
	switch w[0] {
	case "ls", "cat", "du", "stat", "version", "hash":
		c.add(Read, OnlyReads.By("gsutil", w[0], ""))
	case "rb":
		c.lasting(Reason{Kind: DeletesWhole, Program: "gsutil", Verb: "rb", What: "a bucket"})
	case "rm":
		if c.shortFlag('r') || c.shortFlag('R') || c.has("--recursive") {
			c.lasting(Reason{Kind: DeletesWhole, Program: "gsutil", Verb: "rm -r", What: "what lies under the URL"})
			return
		}
		c.add(Destructive, Destroys.By("gsutil", "rm", ""))
	case "rsync":
		if c.shortFlag('d') {
			c.add(Destructive, Destroys.By("gsutil", "rsync -d", ""))
		}
		c.add(RemoteWrite, ChangesServer.By("gsutil", "rsync", ""))
	default:
		ops := c.operands()
		if len(ops) > 0 && strings.HasPrefix(ops[len(ops)-1].Value, "gs://") {
			c.add(RemoteWrite, ChangesServer.By("gsutil", w[0], ""))
			return
		}
		c.add(LocalWrite, LocalWork.By("gsutil", w[0], ""))
	}
}

func azureFamily() family {
	return family{names: []string{"az"}, classify: azure}
}

func azure(c *cmd) {
	ws := c.words(5)
	if ws[0] == "rest" && c.literalWords(1) {
		// az rest sends any request to Azure's API with the person's token:
		// the method, not the subcommand, says what it does. Its other
		// words are a URL and a body, which may hold a ? or a brace.
		if w, ok := c.hiddenOption(); ok {
			c.add(Opaque, UnknownVerb.By("az rest", w.Raw, ""))
			return
		}
		method := "get"
		for i, a := range c.args {
			if v, ok := strings.CutPrefix(a.Value, "--method="); ok {
				method = v
				if !a.Plain() {
					method = "\x00"
				}
			} else if (a.Value == "--method" || a.Value == "-m") && i+1 < len(c.args) {
				method = c.args[i+1].Value
				if !c.args[i+1].Plain() {
					method = "\x00"
				}
			}
		}
		switch strings.ToLower(method) {
		case "get", "head", "options":
			c.add(Read, OnlyReads.By("az rest", method, ""))
		case "delete":
			c.add(Destructive, Destroys.By("az", "rest delete", ""))
		default:
			c.add(Deploy, Deploys.By("az rest", method, ""))
		}
		return
	}
	if !c.literalWords(5) {
		// az reads what it does from any of its words (az keyvault
		// secret show): one that is a variable may be the one.
		c.add(Opaque, UnknownVerb.By("az", c.written(5), ""))
		return
	}
	if contains(ws, "get-access-token") || ws[0] == "login" || ws[0] == "logout" {
		c.add(Secret, TouchesCredential.By("az", ws[0], ""))
		return
	}
	op := ""
	for _, w := range ws {
		if cloudVerbWord(w) || w == "purge" || w == "swap" {
			op = w
			break
		}
	}
	switch ws[0] {
	case "find":
		// Searches az's examples; its next word is the search.
		c.add(Read, OnlyReads.By("az", "find", ""))
		return
	case "configure":
		c.add(LocalWrite, ChangesLocalSettings.By("az", "configure", ""))
		return
	}
	if op == "" {
		// The command is the last word of the path before the options
		// (az vm deallocate, az aks scale): none of the verbs above does
		// not make it a read.
		op = azCommand(c)
	}
	if ws[0] == "account" && (op == "show" || op == "list") {
		c.add(Read, OnlyReads.By("az", "account", ""))
		return
	}
	if ws[0] == "keyvault" && (contains(ws, "secret") || contains(ws, "key") || contains(ws, "certificate")) &&
		(op == "show" || contains(ws, "download") || contains(ws, "backup")) {
		c.add(Secret, PrintsCredential.By("az keyvault", ws[1], ""))
		return
	}
	if verb := azSecret(ws, c.has("--show-values")); verb != "" {
		c.add(Secret, PrintsCredential.By("az "+ws[0], verb, ""))
		return
	}
	for _, w := range ws {
		switch {
		case w == "up":
			// az webapp up, az containerapp up, az staticwebapp …: build and deploy.
			c.add(Deploy, Deploys.By("az", ws[0]+" up", ""))
			return
		case strings.HasPrefix(w, "upload") || ws[0] == "storage" && (w == "sync" || w == "copy"):
			c.add(RemoteWrite, ChangesServer.By("az", ws[0]+" "+w, ""))
			return
		}
	}
	if op == "delete" || op == "purge" {
		for _, g := range azLasting {
			if len(ws) > len(g) && slices.Equal(ws[:len(g)], g) && ws[len(g)] == op {
				c.lasting(Reason{Kind: DeletesWhole, Program: "az " + strings.Join(g, " "), Verb: op, What: "a resource"})
				return
			}
		}
	}
	c.cloudVerb("az "+ws[0], op)
}

// azSecret says what an az command prints that is a credential (its verb), "" when
// it prints none (each from its az reference page): an account's keys and
// connection strings, a SAS token, a registry's passwords, an app's
// publishing credentials and settings, a container app's secret values,
// the cluster credentials aks get-credentials stores.
func azSecret(ws []string, showValues bool) string {
	for i, w := range ws {
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		switch {
		case w == "show-connection-string" || w == "list-connection-strings" || w == "list-keys" || w == "generate-sas" ||
			w == "list-publishing-profiles" || w == "list-publishing-credentials" || w == "get-credentials" ||
			w == "keys" && next == "list" || w == "credential" && next == "show" || w == "connection-string" && next == "show":
			return w
		case w == "appsettings" && next == "list":
			return "appsettings list"
		case w == "secret" && (next == "show" || next == "list" && showValues):
			return "secret " + next
		}
	}
	return ""
}

// azLasting are the az command groups whose delete removes a cluster, a
// database, a storage container or a resource group whole (each from its
// az reference page).
var azLasting = [][]string{{"aks"}, {"group"}, {"sql", "server"}, {"sql", "db"}, {"postgres", "flexible-server"},
	{"postgres", "server"}, {"mysql", "flexible-server"}, {"mysql", "server"}, {"cosmosdb"}, {"storage", "account"},
	{"storage", "container"}}

func flyFamily() family {
	return family{names: []string{"fly", "flyctl"}, classify: fly}
}

func fly(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; v {
	case "deploy", "launch", "scale", "restart", "machine", "machines", "deploy-x", "secrets", "ips", "certs", "regions", "volumes", "apps", "postgres", "redis", "proxy", "ssh", "console", "config":
		// The groups' next word is the command (fly apps destroy), but
		// for deploy, launch, restart, scale, ssh, console and proxy,
		// whose next word is an argument or a command of their own.
		if !c.literalWords(2) && !slices.Contains([]string{"deploy", "launch", "restart", "scale", "ssh", "console", "proxy"}, v) {
			c.add(Opaque, UnknownVerb.By(c.name, c.written(2), ""))
			return
		}
		switch ws[1] {
		case "list", "ls", "show", "status", "":
			if v == "deploy" || v == "launch" || v == "restart" || v == "scale" {
				c.add(Deploy, Deploys.By(c.name, v, ""))
				if v == "deploy" {
					c.worksOn(1, "-i", "--image", "--dockerfile", "--strategy", "--build-arg", "--build-secret", "--label", "--vm-size",
						"--wait-timeout", "--build-target", "--primary-region", "--image-label", "--file-local", "--file-literal",
						"--file-secret", "--vm-cpus", "--vm-memory") // the folder it builds and deploys
				}
				return
			}
			if v == "ssh" || v == "console" || v == "proxy" {
				c.add(Deploy, Deploys.By(c.name, v, ""))
				return
			}
			c.add(Read, OnlyReads.By(c.name, v, ""))
		case "destroy", "delete", "remove", "rm":
			c.add(Destructive, Destroys.By(c.name, v+" "+ws[1], ""))
		default:
			c.add(Deploy, Deploys.By(c.name, v+" "+ws[1], ""))
		}
	case "destroy":
		c.add(Destructive, Destroys.By(c.name, "destroy", ""))
	case "auth", "orgs":
		// fly auth --help: docker, login, logout, signup, token, whoami;
		// fly orgs --help: create, delete, invite, list, remove, replay-sso-link, show.
		if !c.literalWords(2) {
			c.add(Opaque, UnknownVerb.By(c.name, c.written(2), ""))
			return
		}
		switch w := ws[1]; {
		case w == "" || w == "whoami" || w == "list" || w == "show":
			c.add(Read, OnlyReads.By(c.name+" "+v, w, ""))
		case v == "auth":
			c.add(Secret, TouchesCredential.By(c.name, "auth "+w, ""))
		case w == "delete" || w == "remove":
			c.add(Destructive, Destroys.By(c.name, "orgs "+w, ""))
		case w == "create" || w == "invite":
			c.add(RemoteWrite, ChangesServer.By(c.name, "orgs "+w, ""))
		default:
			c.add(Opaque, UnknownVerb.By(c.name+" orgs", w, ""))
		}
	case "status", "logs", "info", "version", "doctor", "dashboard", "open", "releases", "history", "platform", "":
		c.add(Read, OnlyReads.By(c.name, v, ""))
	default:
		c.add(Deploy, Deploys.By(c.name, v, ""))
	}
}

// vercelTakes are the options of vercel's deploy that take a value as the
// next word.
var vercelTakes = []string{"-A", "--local-config", "-b", "--build-env", "-e", "--env", "-m", "--meta", "-S", "--scope",
	"-t", "--token", "-Q", "--global-config", "--regions", "--target", "--archive", "--cwd"}

func vercelFamily() family {
	return family{names: []string{"vercel"}, classify: vercel}
}

func vercel(c *cmd) {
	ws := c.words(2)
	switch v := ws[0]; v {
	case "ls", "list", "inspect", "logs", "whoami", "help", "--version", "domains-ls", "project-ls":
		c.add(Read, OnlyReads.By("vercel", v, ""))
	case "env":
		if ws[1] == "pull" {
			c.add(Secret, PrintsCredential.By("vercel", "env pull", ""))
			return
		}
		if ws[1] == "ls" || ws[1] == "list" {
			c.add(Read, OnlyReads.By("vercel", "env ls", ""))
			return
		}
		c.add(Deploy, Deploys.By("vercel env", ws[1], ""))
	case "rm", "remove":
		c.add(Destructive, Destroys.By("vercel", "rm", ""))
	case "project", "projects":
		// vercel project ls, inspect; add and rm change the team's
		// projects (Vercel CLI docs: vercel project).
		switch ws[1] {
		case "ls", "list", "inspect":
			c.add(Read, OnlyReads.By("vercel project", ws[1], ""))
		case "rm", "remove":
			c.add(Destructive, Destroys.By("vercel", "project rm", ""))
		default:
			c.add(Deploy, Deploys.By("vercel project", ws[1], ""))
		}
	case "link", "pull", "login", "logout", "dev", "build", "init":
		c.add(LocalWrite, LocalWork.By("vercel", v, ""))
	default:
		c.add(Deploy, Deploys.By("vercel", "", ""))
		switch v {
		case "deploy":
			c.worksOn(1, vercelTakes...) // the folder it deploys
		case "":
			c.worksOn(0, vercelTakes...)
		}
	}
}

func netlifyFamily() family {
	return family{names: []string{"netlify"}, classify: netlify}
}

func netlify(c *cmd) {
	ws := c.words(1)
	switch ws[0] {
	case "env:list", "env:get":
		// netlify env:list and env:get print the site's variables with
		// their values.
		c.add(Secret, PrintsCredential.By("netlify", ws[0], ""))
	case "deploy":
		c.add(Deploy, Deploys.By("netlify", "deploy", ""))
	case "status", "open", "sites:list", "logs", "":
		c.add(Read, OnlyReads.By("netlify", ws[0], ""))
	case "dev", "build", "link", "init", "login":
		c.add(LocalWrite, LocalWork.By("netlify", ws[0], ""))
	default:
		if strings.Contains(ws[0], "delete") {
			c.add(Destructive, Destroys.By("netlify", ws[0], ""))
			return
		}
		c.add(Deploy, Deploys.By("netlify", ws[0], ""))
	}
}

func heroku(c *cmd) {
	ws := c.words(1)
	v := ws[0]
	switch {
	case strings.Contains(v, "destroy") || strings.Contains(v, "delete") || strings.Contains(v, "reset"):
		c.add(Destructive, Destroys.By("heroku", v, ""))
	case v == "config" || v == "config:get" || v == "pg:credentials:url" || v == "redis:credentials":
		// heroku config prints every config var's value, DATABASE_URL and
		// the add-ons' keys among them; the credential verbs print a URL
		// with its password.
		c.add(Secret, PrintsCredential.By("heroku", v, ""))
	case v == "logs" || v == "ps" || v == "apps" || v == "info" || v == "releases" || v == "addons" || v == "status" || v == "whoami" || v == "":
		c.add(Read, OnlyReads.By("heroku", v, ""))
	case v == "auth:token":
		c.add(Secret, TouchesCredential.By("heroku", "", ""))
	default:
		c.add(Deploy, Deploys.By("heroku", v, ""))
	}
}

func herokuFamily() family {
	return family{names: []string{"heroku"}, classify: heroku}
}

func deployCLIFamily() family {
	return family{names: []string{"sam", "kapp", "istioctl", "linkerd", "velero", "firebase", "wrangler", "serverless", "sls", "kamal", "railway"}, classify: deployCLI}
}

// deployCLI: platforms whose verbs deploy unless they only look.
func deployCLI(c *cmd) {
	ws := c.words(1)
	v := ws[0]
	switch {
	case c.name == "railway" && (v == "variables" || v == "variable" || v == "vars") && !c.has("--set", "-s"):
		// railway variables shows the service's variables with their values.
		c.add(Secret, PrintsCredential.By("railway", "variables", ""))
	case c.name == "wrangler" && v == "secret" && c.words(2)[1] == "list", c.name == "firebase" && v == "functions:secrets:access":
		// wrangler secret list prints names; functions:secrets:access
		// prints a secret's value.
		if v == "secret" {
			c.add(Read, OnlyReads.By("wrangler", "secret list", ""))
			return
		}
		c.add(Secret, PrintsCredential.By("firebase", "", ""))
	case v == "" || v == "help" || v == "whoami" || v == "login" || v == "logs" || v == "tail" || v == "info" || strings.HasSuffix(v, "list") || v == "status" || v == "version" || v == "dev" || v == "serve" || v == "emulators:start" || v == "init" || v == "build" || v == "types":
		c.add(LocalWrite, LocalWork.By(c.name, v, ""))
	case strings.Contains(v, "delete") || strings.Contains(v, "remove") || strings.Contains(v, "destroy") || v == "rm":
		c.add(Destructive, Destroys.By(c.name, v, ""))
	default:
		c.add(Deploy, Deploys.By(c.name, v, ""))
		switch {
		case c.name == "wrangler" && (v == "deploy" || v == "publish"):
			c.worksOn(1, "--name", "--compatibility-date", "--compatibility-flags", "--assets", "--site", "--var", "--define",
				"--routes", "--route", "--outdir", "--tsconfig", "--dispatch-namespace", "--site-include", "--site-exclude",
				"--jsx-factory", "--jsx-fragment", "--upload-source-maps", "--alias", "--triggers", "--schedule",
				"--schedules") // the script it deploys
		case c.name == "railway" && v == "up":
			c.worksOn(1, "-s", "--service", "--environment") // the folder it deploys
		}
	}
}

func cdkFamily() family {
	return family{names: []string{"cdktf", "cdk"}, classify: cdk}
}

func cdk(c *cmd) {
	switch v := c.words(1)[0]; v {
	case "deploy", "bootstrap", "import", "watch", "rollback":
		c.add(Deploy, Deploys.By("cdk", v, ""))
	case "destroy":
		c.lasting(Reason{Kind: DeletesWhole, Program: "cdk", Verb: "destroy", What: "the stacks"})
	default:
		c.add(LocalWrite, LocalWork.By("cdk", v, ""))
	}
}

func ansibleFamily() family {
	return family{names: []string{"ansible-playbook", "ansible"}, classify: ansible}
}

func ansible(c *cmd) {
	if c.has("--check", "-C", "--syntax-check", "--list-hosts", "--list-tasks") {
		c.add(Read, DryRun.By(c.name, "--check", ""))
		return
	}
	c.add(Deploy, Deploys.By(c.name, "", ""))
	if c.name == "ansible-playbook" {
		c.worksOn(0, "-i", "--inventory", "--inventory-file", "-e", "--extra-vars", "-l", "--limit", "-u", "--user", "--tags",
			"--skip-tags", "-f", "--forks", "--vault-password-file", "--vault-id", "-M", "--module-path", "--private-key",
			"--key-file", "--connection", "-T", "--timeout", "--become-user", "--become-method", "--start-at-task",
			"--ssh-common-args", "--ssh-extra-args", "--scp-extra-args", "--sftp-extra-args", "-k", "-K") // the playbooks it runs
	}
}

func vaultFamily() family {
	return family{names: []string{"vault"}, classify: vault}
}

func vault(c *cmd) {
	ws := c.words(2)
	v, sub := ws[0], ws[1]
	switch {
	case v == "kv" && sub == "get" || v == "read" || v == "token" || v == "login" || v == "print":
		c.add(Secret, ReadsCredential.By("vault", v, ""))
	case v == "kv" && (sub == "list" || sub == "metadata"), v == "list", v == "status", v == "version", v == "secrets" && sub == "list", v == "auth" && sub == "list", v == "policy" && (sub == "list" || sub == "read"):
		c.add(Read, OnlyReads.By("vault", v+" "+sub, ""))
	case v == "kv" && (sub == "delete" || sub == "destroy" || sub == "metadata"), v == "delete", v == "secrets" && (sub == "disable" || sub == "move"), v == "auth" && sub == "disable", v == "lease" && sub == "revoke", v == "policy" && sub == "delete":
		c.add(Destructive, Destroys.By("vault", v+" "+sub, ""))
	default:
		c.add(RemoteWrite, ChangesServer.By("vault", v+" "+sub, ""))
	}
}

func rclone(c *cmd) {
	c.byVerb(c.words(1)[0], verbRule{nil, RemoteWrite, ChangesServer},
		verbRule{[]string{"ls", "lsd", "lsl", "lsf", "lsjson", "size", "check", "cat", "about", "listremotes", "version", "tree", "md5sum", "sha1sum", "hashsum", ""}, Read, OnlyReads},
		verbRule{[]string{"delete", "purge", "deletefile", "rmdir", "rmdirs", "cleanup", "dedupe", "sync", "bisync"}, Destructive, Destroys},
		verbRule{[]string{"config"}, Secret, TouchesCredential})
}

func stripeFamily() family {
	return family{names: []string{"stripe"}, classify: stripe}
}

func stripe(c *cmd) {
	ws := c.words(2)
	switch {
	case ws[1] == "create" || ws[1] == "capture" || ws[1] == "pay" || ws[1] == "confirm" || strings.Contains(ws[0], "refund") || strings.Contains(ws[0], "payout") || strings.Contains(ws[0], "transfer") || ws[0] == "post":
		c.add(Money, Pays.By("stripe", ws[0]+" "+ws[1], ""))
	case ws[1] == "list" || ws[1] == "retrieve" || ws[0] == "get" || ws[0] == "logs" || ws[0] == "listen" || ws[0] == "":
		c.add(Read, OnlyReads.By("stripe", ws[0], ""))
	default:
		c.add(Money, Pays.By("stripe", ws[0]+" "+ws[1], ""))
	}
}

func mkdocsFamily() family {
	return family{names: []string{"mkdocs"}, classify: mkdocs}
}

// mkdocs gh-deploy builds the site and force-pushes it to gh-pages.
func mkdocs(c *cmd) {
	switch v := c.verb(); v {
	case "gh-deploy":
		c.add(Deploy, Deploys.By("mkdocs", "gh-deploy", ""))
		if c.has("--force", "-f") {
			c.add(ForceRemote, PushesForce.By("mkdocs", "gh-deploy --force", ""))
		}
	case "serve":
		c.add(LocalWrite, LocalWork.By("mkdocs", "serve", ""))
		c.devServer()
	default:
		c.add(LocalWrite, LocalWork.By("mkdocs", v, ""))
		c.cwdWrite()
	}
}

func packerFamily() family { return family{names: []string{"packer"}, classify: packer} }

func packer(c *cmd) {
	switch v := c.verb(); v {
	case "build":
		c.add(Deploy, Deploys.By("packer", "build", ""))
	case "init", "fmt", "hcl2_upgrade", "plugins":
		c.add(LocalWrite, LocalWork.By("packer", v, ""))
	case "console", "fix", "inspect", "validate", "version", "help", "":
		c.add(Read, OnlyReads.By("packer", v, ""))
	default:
		c.add(Opaque, UnknownVerb.By("packer", v, ""))
	}
}

func vagrant(c *cmd) {
	switch v := c.verb(); v {
	case "status", "global-status", "version", "ssh-config", "box", "plugin", "validate", "port", "help", "":
		if (v == "box" || v == "plugin") && c.words(2)[1] != "list" {
			c.add(LocalWrite, LocalWork.By("vagrant", v, ""))
			return
		}
		c.add(Read, OnlyReads.By("vagrant", v, ""))
	case "destroy":
		c.add(Destructive, Destroys.By("vagrant", "destroy", ""))
	case "ssh", "powershell", "rdp":
		c.add(Opaque, RunsUnread.By("vagrant", v, ""))
	case "push", "share", "cloud":
		c.add(Deploy, Deploys.By("vagrant", v, ""))
	default:
		c.add(LocalWrite, LocalWork.By("vagrant", v, ""))
	}
}

func vagrantFamily() family {
	return family{names: []string{"vagrant"}, classify: vagrant}
}

func genericCloudFamily() family {
	return family{names: []string{"copilot", "doctl", "linode-cli", "hcloud", "scw", "ibmcloud", "oci", "aliyun", "render"}, classify: genericCloud}
}

func genericCloud(c *cmd) {
	ws := c.words(3)
	if !c.literalWords(2) {
		// The command is a variable: cloudVerb would take "" for none.
		c.add(Opaque, UnknownVerb.By(c.name, c.written(2), ""))
		return
	}
	op := ws[1]
	for _, w := range ws[1:] {
		if cloudVerbWord(w) || w == "rm" || w == "ls" || strings.HasPrefix(w, "destroy") || strings.HasPrefix(w, "terminate") {
			op = w
			break
		}
	}
	if ws[0] == "auth" || ws[0] == "login" || ws[0] == "logout" || ws[0] == "config" && op != "list" && op != "get" {
		c.add(Secret, TouchesCredential.By(c.name, ws[0], ""))
		return
	}
	if op == "ssh" || op == "exec" {
		c.add(Opaque, RunsUnread.By(c.name, ws[0]+" "+op, ""))
		return
	}
	c.cloudVerb(c.name+" "+ws[0], op)
}

func s3cmd(c *cmd) {
	switch v := c.verb(); v {
	case "ls", "la", "info", "du", "get":
		c.add(Network, ReachesHost.By("s3cmd", v, ""))
	case "del", "rm", "rb", "deleteall":
		c.add(Destructive, Destroys.By("s3cmd", v, ""))
	default:
		c.add(Exfil, SendsData.By("s3cmd", v, ""))
	}
}

func s3cmdFamily() family {
	return family{names: []string{"s3cmd"}, classify: s3cmd}
}

// inertGcloudProperty reports a gcloud property (section/name, core's
// without its section) that names no program, proxy, endpoint or file
// gcloud trusts: the project, account and regions a step sets day to day.
func inertGcloudProperty(p string) bool {
	if !strings.Contains(p, "/") {
		p = "core/" + p
	}
	switch p {
	case "core/project", "core/account", "core/disable_usage_reporting", "core/verbosity", "core/disable_prompts",
		"core/user_output_enabled", "core/disable_color", "survey/disable_prompts", "accessibility/screen_reader",
		"compute/region", "compute/zone", "run/region", "run/platform", "functions/region", "container/cluster",
		"artifacts/location", "artifacts/repository", "dataproc/region", "deploy/region", "workflows/location",
		"billing/quota_project", "ai/region", "dataflow/disable_public_ips", "app/promote_by_default":
		return true
	}
	return false
}

// awsDryRun: --dryrun (s3) and --dry-run (ec2…) act on nothing.
func awsDryRun(c *cmd) bool {
	if c.has("--dryrun", "--dry-run") && !c.has("--no-dry-run") {
		c.add(Read, DryRun.By("aws", "--dryrun", ""))
		return true
	}
	return false
}
