package main

import (
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
)

const tsv = "windows\ttabs\trun\tside\tms\n" +
	"10\t3\t1\tkitty-alone\t1000\n10\t3\t1\tkitty-alone\t3000\n10\t3\t1\tkitty-alone\t2000\n10\t3\t1\tprompts\t2500\n" +
	"30\t6\t1\tkitty-alone\t4000\n30\t6\t1\tprompts\t6000\n30\t6\t1\tkey-to-exec\t99999\n"

// TestPlot: each size and side drawn gets a point at its median, higher
// for a longer time; sides not in the legend are left out; the SVG is
// well-formed.
func TestPlot(t *testing.T) {
	s, err := read(strings.NewReader(tsv))
	if err != nil {
		t.Fatal(err)
	}
	if got := s[key{10, "kitty-alone"}]; len(got) != 3 || median(got) != 2000 {
		t.Errorf("kitty alone at 10: %v", got)
	}
	svg := plot(s)
	var cy []float64
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, svg)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "circle" {
			for _, a := range el.Attr {
				if a.Name.Local == "cy" {
					v, _ := strconv.ParseFloat(a.Value, 64)
					cy = append(cy, v)
				}
			}
		}
	}
	// kitty alone 10, 30; prompts 10, 30 (key-to-exec is not drawn).
	if len(cy) != 4 {
		t.Fatalf("%d points, want 4:\n%s", len(cy), svg)
	}
	// 2000 < 4000 ms and 2500 < 6000 ms: the longer time is higher (smaller y).
	if !(cy[0] > cy[1] && cy[2] > cy[3] && cy[0] > cy[2]) {
		t.Errorf("points at %v", cy)
	}
	if !strings.Contains(svg, "prompts 1.25×") || !strings.Contains(svg, "prompts 1.50×") {
		t.Errorf("ratios missing:\n%s", svg)
	}
}

func TestReadRefusesBadLines(t *testing.T) {
	for _, in := range []string{"10\t3\tprompts\n", "x\t3\tprompts\t5\n", "10\t3\t1\tprompts\tfast\n"} {
		if _, err := read(strings.NewReader(in)); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
}
