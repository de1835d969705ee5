package plan

import "testing"

func TestWindowDir(t *testing.T) {
	tests := []struct{ cwd, flag, want string }{
		{"/a/b/", "", "/a/b"},
		{"/a", "../x", "/x"},
		{"/a", "/y", "/y"},
		{"", "rel", ""},
		{"", "", ""},
	}
	for _, tc := range tests {
		if got := windowDir(tc.cwd, tc.flag); got != tc.want {
			t.Errorf("windowDir(%q, %q) = %q, want %q", tc.cwd, tc.flag, got, tc.want)
		}
	}
}
