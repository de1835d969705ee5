package sessions_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/kittymux/kittymux/pkg/cmd/factory"
	"github.com/kittymux/kittymux/pkg/cmd/factory/factorytest"
	"github.com/kittymux/kittymux/pkg/cmd/sessions"
)

func TestSaveFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    sessions.SaveOptions
		wantErr string
	}{
		{nil, sessions.SaveOptions{Name: "default"}, ""},
		{[]string{"work", "--all", "--direct", "--json"}, sessions.SaveOptions{Name: "work", All: true, Direct: true, JSON: true}, ""},
		{[]string{"../x"}, sessions.SaveOptions{}, "session name"},
		{[]string{"last"}, sessions.SaveOptions{}, "reserved"},
		{[]string{"a", "b"}, sessions.SaveOptions{}, "accepts at most 1 arg"},
	} {
		f, _, _ := factorytest.New(t)
		var got *sessions.SaveOptions
		cmd := sessions.NewCmdSave(f, func(o *sessions.SaveOptions) error { got = o; return nil })
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
		fromFactory := cmpopts.IgnoreFields(sessions.SaveOptions{}, "IO", "Paths", "Target", "Agents", "Probes", "ResumeBin")
		if diff := cmp.Diff(c.want, *got, fromFactory); diff != "" {
			t.Errorf("%q (-want +got):\n%s", c.args, diff)
		}
	}
}

func TestPublishFlags(t *testing.T) {
	f, _, _ := factorytest.New(t)
	var got *sessions.PublishOptions
	cmd := sessions.NewCmdPublish(f, func(o *sessions.PublishOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"/tmp/raw/quit-1.kitty-session"})
	if err := cmd.Execute(); err != nil || got.Name != "quit-1" || got.Stdout {
		t.Fatalf("publish RAW: %v %+v", err, got)
	}
	got = nil
	cmd = sessions.NewCmdPublish(f, func(o *sessions.PublishOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"raw", "--name", "n", "--stdout"})
	if err := cmd.Execute(); err != nil || got.Name != "n" || !got.Stdout {
		t.Fatalf("publish --name --stdout: %v %+v", err, got)
	}
}
