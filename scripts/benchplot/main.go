// Command benchplot draws the restore benchmark's samples (the TSV
// BenchmarkRealRestore writes: windows, tabs, run, side, ms) as an SVG: restore
// time against windows, kittymux beside kitty alone, each point the median
// of its runs with a bar from the fastest to the slowest.
//
//	go run ./scripts/benchplot docs/bench-restore.tsv docs/bench-restore.svg
package main

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// series are the sides drawn, in the legend's order.
var series = []struct{ side, label, color string }{
	{"kitty-alone", "kitty alone: every shell at its prompt", "#555555"},
	{"prompts", "kittymux: every restore prompt drawn", "#1f77b4"},
	{"all-exec", "kittymux: every agent exec'd after one `a`", "#2ca02c"},
	{"report", "kittymux: restore's report complete (auto)", "#d62728"},
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: benchplot SAMPLES.tsv OUT.svg")
		os.Exit(2)
	}
	in, err := os.Open(os.Args[1])
	if err != nil {
		fail(err)
	}
	samples, err := read(in)
	in.Close()
	if err != nil {
		fail(fmt.Errorf("%s: %w", os.Args[1], err))
	}
	if err := os.WriteFile(os.Args[2], []byte(plot(samples)), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchplot:", err)
	os.Exit(1)
}

type key struct {
	windows int
	side    string
}

// read returns each size and side's samples in ms.
func read(r io.Reader) (map[key][]float64, error) {
	out := map[key][]float64{}
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		f := strings.Split(sc.Text(), "\t")
		if n == 1 && len(f) > 0 && f[0] == "windows" {
			continue
		}
		if len(f) != 5 {
			return nil, fmt.Errorf("line %d: want 5 fields, have %d", n, len(f))
		}
		w, err1 := strconv.Atoi(f[0])
		_, err2 := strconv.Atoi(f[2])
		v, err3 := strconv.ParseFloat(f[4], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			return nil, fmt.Errorf("line %d: %q", n, sc.Text())
		}
		out[key{w, f[3]}] = append(out[key{w, f[3]}], v)
	}
	return out, sc.Err()
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// plot is the SVG.
func plot(samples map[key][]float64) string {
	var sizes []int
	top := 0.0
	for k, v := range samples {
		if !slices.Contains(sizes, k.windows) {
			sizes = append(sizes, k.windows)
		}
		if slices.ContainsFunc(series, func(s struct{ side, label, color string }) bool { return s.side == k.side }) {
			top = max(top, slices.Max(v))
		}
	}
	slices.Sort(sizes)
	const w, h, left, right, up, down = 900.0, 440.0, 70.0, 20.0, 40.0, 150.0
	xmax := 10*math.Ceil(float64(slices.Max(sizes))/10) + 10
	ystep := niceStep(top / 1000 / 5)
	ymax := ystep * math.Ceil(top/1000/ystep)
	if ymax == 0 {
		ymax = 1
	}
	x := func(n float64) float64 { return left + n/xmax*(w-left-right) }
	y := func(s float64) float64 { return h - down + 0 - s/ymax*(h-up-down) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="12">`+"\n", w, h, w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" font-size="14" font-weight="bold">Restore time against windows (medians; bars: fastest to slowest run)</text>`+"\n", left)
	// Axes, grid and ticks.
	for s := 0.0; s <= ymax+1e-9; s += ystep {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e5e5e5"/>`+"\n", x(0), y(s), x(xmax), y(s))
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="end">%g</text>`+"\n", x(0)-6, y(s)+4, s)
	}
	for _, n := range sizes {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`+"\n", x(float64(n)), y(0)+16, n)
	}
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x(0), y(0), x(xmax), y(0))
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x(0), y(0), x(0), y(ymax))
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">agent windows restored</text>`+"\n", x(xmax/2), y(0)+34)
	fmt.Fprintf(&b, `<text transform="translate(18 %.1f) rotate(-90)" text-anchor="middle">seconds from the command (X server's start left out)</text>`+"\n", y(ymax/2))
	// Each series: a line through the medians, a bar per size.
	ratios := make([][]string, len(sizes))
	for i, s := range series {
		var pts []string
		for j, n := range sizes {
			v := samples[key{n, s.side}]
			if len(v) == 0 {
				continue
			}
			// Side by side, not on top of each other.
			px := x(float64(n)) + float64(i-len(series)/2)*5 + 2.5
			lo, hi, m := slices.Min(v)/1000, slices.Max(v)/1000, median(v)/1000
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", px, y(lo), px, y(hi), s.color)
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>`+"\n", px, y(m), s.color)
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px, y(m)))
			if base := samples[key{n, "kitty-alone"}]; s.side != "kitty-alone" && len(base) > 0 {
				ratios[j] = append(ratios[j], fmt.Sprintf("%s %.2f×", s.side, median(v)/median(base)))
			}
		}
		if len(pts) > 1 {
			fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`+"\n", strings.Join(pts, " "), s.color)
		}
		ly := h - down + 52 + float64(i)*18
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="3"/>`+"\n", left, ly-4, left+24, ly-4, s.color)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f">%s</text>`+"\n", left+32, ly, html.EscapeString(s.label))
	}
	for j, n := range sizes {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="11">%d windows, median over kitty alone's: %s</text>`+"\n",
			left+330, h-down+52+float64(j)*18, n, html.EscapeString(strings.Join(ratios[j], ", ")))
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" font-size="10" fill="#555">resume.interval 0 (staggered starts are reported apart in BENCHMARKS.md); fake agents that start at once</text>`+"\n", left, h-12)
	b.WriteString("</svg>\n")
	return b.String()
}

// niceStep is 1, 2 or 5 times a power of ten, at least v.
func niceStep(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}
