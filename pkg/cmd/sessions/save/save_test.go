package save_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions/save"
)

func TestSaveFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    save.SaveOptions
		wantErr string
	}{
		{nil, save.SaveOptions{Name: "default"}, ""},
		{[]string{"work", "--all", "--direct", "--json"}, save.SaveOptions{Name: "work", All: true, Direct: true, JSON: true}, ""},
		{[]string{"../x"}, save.SaveOptions{}, "session name"},
		{[]string{"last"}, save.SaveOptions{}, "reserved"},
		{[]string{"a", "b"}, save.SaveOptions{}, "accepts at most 1 arg"},
	} {
		f, _, _ := factorytest.New(t)
		var got *save.SaveOptions
		cmd := save.NewCmdSave(f, func(o *save.SaveOptions) error { got = o; return nil })
		cmd.SetArgs(c.args)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		err := cmd.Execute()
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) || got != nil {
				t.Errorf("%q: err %v, ran %v", c.args, err, got != nil)
			}
			var fe *factory.FlagError
			if strings.Contains(c.wantErr, "session name") && !errors.As(err, &fe) {
				t.Errorf("%q: a bad name is not a usage error (exit 2): %T", c.args, err)
			}
			continue
		}
		if err != nil || got == nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		// What comes from the Factory is not the flags'.
		fromFactory := cmpopts.IgnoreFields(save.SaveOptions{}, "IO", "Paths", "Target", "Agents", "Probes", "ResumeBin")
		if diff := cmp.Diff(c.want, *got, fromFactory); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.args, diff)
		}
	}
}
