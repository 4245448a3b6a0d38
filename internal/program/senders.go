package program

// senders registers the programs risk classifies in risk/senders.go.
func (r builder) senders() {
	// Programs that reach other hosts.
	r.add(Remote, `websocat wscat swaks ssh-copy-id grpcurl`)

	r.add(0, `openssl ngrok cloudflared lt localtunnel bore tailscale`)
}
