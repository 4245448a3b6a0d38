package program

// clouds registers the programs risk classifies in risk/clouds.go.
func (r builder) clouds() {
	// The clouds' and forges' command lines that keep logs, token caches
	// and their own settings in the home, and fail without them.
	r.state("gcloud", ".config/gcloud")
	r.state("gsutil", ".config/gcloud", ".gsutil")
	r.state("az", ".azure")
	r.state("aws", ".aws/cli/cache", ".aws/sso/cache")

	// The credentials, relative to the home, each needs for its own work:
	// the person's own, to fetch, list and read what the person may.
	r.creds("aws", ".aws")
	r.creds("az", ".azure")
	for _, g := range []string{"gcloud", "gsutil"} {
		r.creds(g, ".config/gcloud/credentials.db", ".config/gcloud/access_tokens.db", ".config/gcloud/legacy_credentials",
			".config/gcloud/application_default_credentials.json")
	}

	// Programs that reach other hosts.
	r.add(Remote, `rclone s3cmd`)

	r.add(0, `terraform tofu terragrunt pulumi packer vagrant ansible ansible-playbook sam cdk fly flyctl
		vercel netlify heroku firebase wrangler serverless sls kamal railway render doctl linode-cli
		hcloud scw ibmcloud oci aliyun vault stripe mkdocs cdktf copilot kapp istioctl linkerd velero`)
}
