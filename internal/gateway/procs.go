package gateway

// Procs is how many threads sayso serve runs Go code on at once
// (GOMAXPROCS) where n could: half, and at least one. The gateway shares
// the machine with the clients it answers and the hook processes they
// start, and its work comes in short steps that hand over between
// goroutines: at each handover, while a processor sits idle, the runtime
// wakes a thread to look for work, which finds none and sleeps again. On
// two virtual CPUs, one processor took a sixth less of the gateway's CPU
// per step and answered the default hook sooner in every interleaved run
// (docs/performance.md).
func Procs(n int) int {
	return max(1, n/2)
}
