package risk

import "testing"

// TestClassGates holds each class's gates as DESIGN §4–§6 state them:
// what a kept rule or allow entry may cover (liftable), what the reviewer
// may waive, what a lease may be granted for.
func TestClassGates(t *testing.T) {
	tests := []struct {
		c                            Class
		liftable, waivable, leasable bool
	}{
		{Opaque, true, true, false},
		{Read, true, true, false},
		{LocalWrite, true, true, false},
		{Network, true, true, false},
		{RemoteWrite, true, true, true},
		{Merge, true, true, true},
		{ForceRemote, false, true, true},
		{NewRemote, false, true, true},
		{Publish, false, true, true},
		{Deploy, false, true, true},
		{Destructive, true, true, true},
		{ContainerRemove, true, true, true},
		{Privilege, false, true, true},
		{InstructionPatch, true, true, false},
		{Parallelize, true, true, false},
		{DownloadExec, false, true, false},
		{Secret, false, false, false},
		{Exfil, false, true, false},
		{Money, false, false, false},
		{Browser, false, false, false},
		{Count, false, false, false},
		{Protected, false, false, false},
	}
	if len(tests) != int(numClasses) {
		t.Fatalf("%d classes held, want all %d", len(tests), numClasses)
	}
	for _, tt := range tests {
		if tt.c.Liftable() != tt.liftable || tt.c.Waivable() != tt.waivable || tt.c.Leasable() != tt.leasable {
			t.Errorf("%s: liftable %v waivable %v leasable %v, want %v %v %v", tt.c,
				tt.c.Liftable(), tt.c.Waivable(), tt.c.Leasable(), tt.liftable, tt.waivable, tt.leasable)
		}
		if s := Of(Read, tt.c); s.Liftable() != tt.liftable || s.Waivable() != tt.waivable {
			t.Errorf("{read, %s}: liftable %v waivable %v", tt.c, s.Liftable(), s.Waivable())
		}
	}
	// Kinds as DESIGN §4 states them.
	kinds := map[Class]Kind{Read: KindSafe, LocalWrite: KindLocal, Network: KindRisky, Opaque: KindRisky, Count: KindRisky,
		ForceRemote: KindSevere, NewRemote: KindSevere, Deploy: KindSevere, Publish: KindSevere, Protected: KindNever}
	for c := Class(0); c < numClasses; c++ {
		want, ok := kinds[c]
		if !ok {
			want = KindCeiling
		}
		if c.Kind() != want {
			t.Errorf("%s: kind %d, want %d", c, c.Kind(), want)
		}
	}
	if numClasses.Kind() != KindCeiling {
		t.Error("a class past the table is not a ceiling")
	}
	if !(Set(0)).Liftable() || !(Set(0)).Waivable() {
		t.Error("the empty set is gated")
	}
}
