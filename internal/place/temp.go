package place

import "strings"

// Temp are the machine's temporary folders: every walled step may write
// them, whatever its scope, and the engine calls writing or deleting
// below one local work. What lies in one is not the person's: it is there
// for a while, for whoever made it.
var Temp = []string{"/tmp", "/var/tmp", "/dev/shm"}

// InTemp reports whether p, absolute and clean, lies below one of Temp
// (not the folder itself).
func InTemp(p string) bool {
	for _, t := range Temp {
		if strings.HasPrefix(p, t+"/") {
			return true
		}
	}
	return false
}

// IsTemp reports whether p, absolute and clean, is one of Temp.
func IsTemp(p string) bool {
	for _, t := range Temp {
		if p == t {
			return true
		}
	}
	return false
}
