package main

import (
	"runtime"
	"runtime/debug"
)

// buildRev is the commit the binary was built from, set by the Makefile
// (-ldflags "-X main.buildRev=…", `git describe --always --dirty`), since a
// build with -buildvcs=false, or go run, carries no VCS stamp.
var buildRev string

// buildName names this build: its commit (from the Makefile's stamp or the
// VCS stamp Go embeds, "-dirty" for uncommitted changes) and the Go
// version, as "f57b01f go1.26.8"; "unstamped" stands for an unknown commit.
func buildName() string {
	rev := buildRev
	if rev == "" {
		rev = "unstamped"
		if bi, ok := debug.ReadBuildInfo(); ok {
			var modified bool
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value[:min(7, len(s.Value))]
				case "vcs.modified":
					modified = s.Value == "true"
				}
			}
			if modified && rev != "unstamped" {
				rev += "-dirty"
			}
		}
	}
	return rev + " " + runtime.Version()
}
