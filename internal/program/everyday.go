package program

// everyday registers the programs risk classifies in risk/everyday.go.
func (r builder) everyday() {
	r.add(0, `semantic-release release-it np chromatic flit maturin eas nuget pod cap fastlane rails wp husky
		dbt sentry-cli adb defaults nmap mtr iperf3 ab wrk k6 tcpdump tshark rimraf mkdirp ncp copyfiles
		npm-run-all run-s run-p perf fuser chattr fastapi`)

	r.add(Looks, `envsubst`)
	r.add(Builds, `changeset corepack lerna wasm-pack`)
}
