package enum

import "testing"

type color uint8

var colors = New[color]("color", "unknown color %q (want red or blue)", "", "red", "blue")

func TestNames(t *testing.T) {
	for _, c := range []struct {
		v    color
		want string
	}{{0, ""}, {1, "red"}, {2, "blue"}, {3, "color(3)"}} {
		if got := colors.String(c.v); got != c.want {
			t.Errorf("String(%d) = %q, want %q", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		in      string
		want    color
		wantErr string
	}{
		{"red", 1, ""},
		{"blue", 2, ""},
		{"", 0, `unknown color "" (want red or blue)`},
		{"green", 0, `unknown color "green" (want red or blue)`},
		{"color(3)", 0, `unknown color "color(3)" (want red or blue)`},
	} {
		var got color = 2
		err := colors.Unmarshal(&got, []byte(c.in))
		if got != c.want || (err == nil) != (c.wantErr == "") || (err != nil && err.Error() != c.wantErr) {
			t.Errorf("Unmarshal(%q) = %d, %v; want %d, %q", c.in, got, err, c.want, c.wantErr)
		}
	}
	if b, err := colors.Marshal(2); string(b) != "blue" || err != nil {
		t.Errorf("Marshal(2) = %q, %v", b, err)
	}
}
