package tui

import (
	"sort"
	"strings"
	"unicode"

	"github.com/alice-trading/alice/tui/kit"
	"github.com/sahilm/fuzzy"
)

// Palette ranking: what was typed is matched against the title first, the
// way people name a command — the whole title, its start, the start of a
// word in it ("set" → "Settings: …", "chan" → "… channel"), anywhere in it
// — then the same against the group and keywords, and only then letters
// scattered in order (fuzzy), within one word or at word starts before
// across the whole text. Within a tier the palette's order stays (the
// focused pane's actions first); fuzzy matches keep their fuzzy score
// order. So scattered letters ("g…i…t" in "Go to Inbox … tab") never
// outrank a command that says the word.

type matchTier int

const (
	tierExact matchTier = iota
	tierPrefix
	tierWordStart
	tierTitleSubstring
	tierKeywordWordStart
	tierKeywordSubstring
	tierFuzzyTight // letters within one word of the title, or at word starts
	tierFuzzy
)

// rankActions returns the actions matching q, best first.
func rankActions(q string, all []kit.Action) []fuzzy.Match {
	q = strings.ToLower(strings.TrimSpace(q))
	type ranked struct {
		m     fuzzy.Match
		tier  matchTier
		order int
	}
	var out []ranked
	fuzzyByIndex := map[int]fuzzy.Match{}
	for i, fm := range fuzzy.FindFrom(q, actionSource(all)) {
		fm.Score = -i // keep sahilm's order within a fuzzy tier
		fuzzyByIndex[fm.Index] = fm
	}
	for i, a := range all {
		title := strings.ToLower(a.Title)
		extra := strings.ToLower(a.Group + " " + a.Keywords)
		m := fuzzy.Match{Str: a.Title, Index: i}
		tier := matchTier(-1)
		switch {
		case title == q:
			tier, m.MatchedIndexes = tierExact, span(0, len(q))
		case strings.HasPrefix(title, q):
			tier, m.MatchedIndexes = tierPrefix, span(0, len(q))
		case wordStart(title, q) >= 0:
			at := wordStart(title, q)
			tier, m.MatchedIndexes = tierWordStart, span(at, len(q))
		case strings.Contains(title, q):
			at := strings.Index(title, q)
			tier, m.MatchedIndexes = tierTitleSubstring, span(at, len(q))
		case wordStart(extra, q) >= 0:
			tier = tierKeywordWordStart
		case strings.Contains(extra, q):
			tier = tierKeywordSubstring
		default:
			fm, ok := fuzzyByIndex[i]
			if !ok {
				continue
			}
			m = fm
			m.MatchedIndexes = inTitle(fm.MatchedIndexes, len(a.Title))
			tier = tierFuzzy
			if tight(title, fm.MatchedIndexes) {
				tier = tierFuzzyTight
			}
		}
		out = append(out, ranked{m: m, tier: tier, order: i})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].tier != out[j].tier {
			return out[i].tier < out[j].tier
		}
		if out[i].tier >= tierFuzzyTight {
			return out[i].m.Score > out[j].m.Score
		}
		return out[i].order < out[j].order
	})
	res := make([]fuzzy.Match, len(out))
	for i, r := range out {
		res[i] = r.m
	}
	return res
}

func span(at, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = at + i
	}
	return out
}

// wordStart is where q starts a word of s (after a space or punctuation),
// or -1.
func wordStart(s, q string) int {
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], q)
		if j < 0 {
			return -1
		}
		at := i + j
		if at == 0 || !isWordRune(rune(s[at-1])) {
			return at
		}
		i = at + 1
	}
	return -1
}

func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// inTitle keeps the matched positions that fall in the title (the fuzzy
// source is title + group + keywords).
func inTitle(idx []int, n int) []int {
	var out []int
	for _, i := range idx {
		if i < n {
			out = append(out, i)
		}
	}
	return out
}

// tight reports a fuzzy match whose letters all fall in the title and
// either in one word or each at the start of a word (initials).
func tight(title string, idx []int) bool {
	if len(idx) == 0 {
		return false
	}
	word := func(i int) int { return strings.Count(title[:i], " ") }
	oneWord, initials := true, true
	for _, i := range idx {
		if i >= len(title) {
			return false
		}
		if word(i) != word(idx[0]) {
			oneWord = false
		}
		if i > 0 && isWordRune(rune(title[i-1])) {
			initials = false
		}
	}
	return oneWord || initials
}
