package published

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/kittymux/kittymux/pkg/paths"
	"github.com/kittymux/kittymux/pkg/sessionfile"
)

// childEnv makes the test binary a publisher that never stops: the parent
// kills it at a random point.
const childEnv = "KITTYMUX_TEST_PUBLISH_FOREVER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		p := paths.Under(dir)
		for i := 0; ; i++ {
			if _, err := Publish(p, "work", killContent(i%2)); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
	os.Exit(m.Run())
}

// killContent is one of two valid saves, large enough that a kill often
// lands while one is being written.
func killContent(which int) []byte {
	var b bytes.Buffer
	for i := range 8000 {
		fmt.Fprintf(&b, "new_tab t%d-%d\ncd /home/u/code/%d\nlaunch 'kitty-unserialize-data={\"id\": %d}' --cwd=/srv\n", which, i, i, i)
	}
	return b.Bytes()
}

var seedFlag = flag.Uint64("kill.seed", 0, "the seed of TestPublishSurvivesSIGKILL's kill points (default: from the clock; also $KITTYMUX_TEST_KILL_SEED)")

// killSeed is the seed of the kill points: -kill.seed, else
// $KITTYMUX_TEST_KILL_SEED, else the clock.
func killSeed(t *testing.T) uint64 {
	if *seedFlag != 0 {
		return *seedFlag
	}
	if v := os.Getenv("KITTYMUX_TEST_KILL_SEED"); v != "" {
		seed, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("KITTYMUX_TEST_KILL_SEED=%q: %v", v, err)
		}
		return seed
	}
	return uint64(time.Now().UnixNano())
}

// 200 publishers killed with SIGKILL at random points: the published file is
// always one whole save, old or new, and once the next publish has run no
// temp file is left, in the state directory or in the children's TMPDIR.
func TestPublishSurvivesSIGKILL(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	p := paths.Under(tmp)
	childTmp := filepath.Join(tmp, "child-tmp")
	if err := os.Mkdir(childTmp, 0o700); err != nil {
		t.Fatal(err)
	}
	wants := [][]byte{killContent(0), killContent(1)}
	for _, w := range wants {
		if _, err := sessionfile.Parse(w); err != nil {
			t.Fatal(err)
		}
	}
	path, err := Publish(p, "work", wants[0])
	if err != nil {
		t.Fatal(err)
	}
	seed := killSeed(t)
	t.Logf("the delays before each kill come from seed %d: go test -run TestPublishSurvivesSIGKILL -kill.seed=%d ./pkg/published draws them again", seed, seed)
	r := rand.New(rand.NewPCG(seed, 8))
	var midWrite int
	for i := range 200 {
		cmd := exec.Command(exe, "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+tmp, "TMPDIR="+childTmp)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(r.IntN(40_000)) * time.Microsecond)
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err == nil || stderr.Len() > 0 {
			t.Fatalf("child %d: %v %s", i, err, stderr.Bytes())
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("after kill %d: %v", i, err)
		}
		// Byte for byte one of the saves, each of which parses.
		if !bytes.Equal(got, wants[0]) && !bytes.Equal(got, wants[1]) {
			t.Fatalf("after kill %d: the published file is neither save (%d bytes)", i, len(got))
		}
		if len(temps(t, p.SessionsDir(), "work"+Ext)) > 0 {
			midWrite++
		}
	}
	t.Logf("%d of 200 kills left a temp file behind", midWrite)
	if _, err := Publish(p, "work", wants[1]); err != nil {
		t.Fatal(err)
	}
	for d, keep := range map[string][]string{p.StateDir: {"sessions"}, p.SessionsDir(): {"work" + Ext}, childTmp: nil} {
		if left := temps(t, d, keep...); len(left) > 0 {
			t.Errorf("left in %s after the next publish: %v", d, left)
		}
	}
}

// temps lists what is in dir besides the names kept.
func temps(t *testing.T, dir string, keep ...string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if !slices.Contains(keep, e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}
