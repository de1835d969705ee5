package kitty

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSocketDirs(t *testing.T) {
	conf := t.TempDir()
	tests := []struct {
		name   string
		conf   string
		listen string
		want   []string
	}{
		{"absolute listen_on", "listen_on unix:/run/user/1000/kitty\n", "", []string{"/run/user/1000"}},
		{"relative listen_on lives in the temp dir", "listen_on unix:kitty\n", "", []string{"/tmp/t"}},
		{"abstract has no directory", "listen_on unix:@kitty\n", "", nil},
		{"KITTY_LISTEN_ON first, no duplicates", "listen_on unix:/a/kitty\n", "unix:/a/kitty-5", []string{"/a"}},
		{"both", "listen_on unix:/a/kitty\n", "unix:/b/k", []string{"/b", "/a"}},
		{"none", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(conf, "kitty.conf"), []byte(tt.conf), 0o600); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"KITTY_LISTEN_ON": tt.listen, "HOME": "/home/u"}
			got := SocketDirs(DiscoverOptions{Getenv: func(k string) string { return env[k] }, ConfigDir: conf, TempDir: "/tmp/t"})
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
