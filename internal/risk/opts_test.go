package risk

import (
	"strings"
	"testing"

	"github.com/sayso-dev/sayso/internal/shell"
)

// TestReadOpts: options as getopt_long and git's parse-options read them.
func TestReadOpts(t *testing.T) {
	spec := optSpec{short: "xo", abbrev: true, long: []string{"exec=", "force", "force-with-lease", "mirror", "upload-pack="}}
	tests := []struct{ args, want string }{
		{"-x'make' main", "-x=make | main"},
		{"-ix make main", "-i -x=make | main"},
		{"-ojson get", "-o=json | get"},
		{"-on --force a", "-o=n --force | a"},
		{"-df a", "-d -f | a"},
		{"--exe=evil a", "--exec=evil | a"},
		{"--ex evil a", "--exec=evil | a"},
		{"--upload-pa=x", "--upload-pack=x | "},
		{"--forc a", "--force | a"},
		{"--force-w a", "--force-with-lease | a"},
		{"--fo a", "--force | a"},
		{"--no-forc a", "--no-forc | a"},
		{"a -- --force", " | a --force"},
		{"-$X a", "? | a"},
	}
	for _, tt := range tests {
		seg := shell.Parse("p " + tt.args).Segments[0]
		o, ops := readOpts(seg.Args[1:], spec)
		var got []string
		for _, x := range o {
			switch {
			case x.dyn:
				got = append(got, "?")
			case x.val != nil:
				got = append(got, x.name+"="+x.val.Value)
			default:
				got = append(got, x.name)
			}
		}
		s := strings.Join(got, " ") + " | " + strings.Join(shell.Words(ops), " ")
		if s != tt.want {
			t.Errorf("readOpts(%s) = %q, want %q", tt.args, s, tt.want)
		}
	}
}

func TestSetuidMode(t *testing.T) {
	for mode, want := range map[string]bool{
		"4755": true, "04755": true, "2755": true, "02755": true, "6755": true, "7777": true,
		"755": false, "0755": false, "00755": false, "1777": false, "01777": false,
		"u+s": true, "g+s": true, "+s": true, "a=rwxs": true, "u=rwx,g+s": true,
		"u+x": false, "go-w": false, "u-s": false,
	} {
		if got := setuidMode(mode); got != want {
			t.Errorf("setuidMode(%q) = %v, want %v", mode, got, want)
		}
	}
}

// TestCanonLongs: abbreviated long options are written out in full, the
// value kept as written; after -- nothing is an option.
func TestCanonLongs(t *testing.T) {
	tests := []struct{ prog, args, want string }{
		{"sed", "--in-pl s/a/b/ f", "--in-place s/a/b/ f"},
		{"wget", "--post-fi=$HOME/x u", "--post-file=$HOME/x u"},
		{"tar", "--to-com='sh -c x' -xf a", "--to-command='sh -c x' -xf a"},
		{"rm", "-- --recu", "-- --recu"},
		{"rm", "--recursive --f x", "--recursive --force x"},
		{"grep", "--no-filename x", "--no-filename x"},
	}
	for _, tt := range tests {
		seg := shell.Parse(tt.prog + " " + tt.args).Segments[0]
		var raws []string
		for _, w := range canonLongs(gnuLongs[tt.prog], seg.Args[1:]) {
			raws = append(raws, w.Raw)
		}
		if got := strings.Join(raws, " "); got != tt.want {
			t.Errorf("canonLongs(%s %s) = %q, want %q", tt.prog, tt.args, got, tt.want)
		}
	}
}
