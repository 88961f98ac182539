package lang

import "unicode"

// script is a writing system. Languages that are alone in their script
// (in this model) are decided by the script; the rest by n-grams.
type script uint8

const (
	otherScript script = iota
	latin
	cyrillic
	arabic
	devanagari
	greek
	hebrew
	georgian
	armenian
	bengali
	gujarati
	gurmukhi
	tamil
	telugu
	thai
	han
	kana
	hangul
	numScripts
)

var scriptTables = []struct {
	s script
	t *unicode.RangeTable
}{
	{latin, unicode.Latin},
	{cyrillic, unicode.Cyrillic},
	{arabic, unicode.Arabic},
	{han, unicode.Han},
	{hangul, unicode.Hangul},
	{kana, unicode.Hiragana},
	{kana, unicode.Katakana},
	{devanagari, unicode.Devanagari},
	{greek, unicode.Greek},
	{hebrew, unicode.Hebrew},
	{georgian, unicode.Georgian},
	{armenian, unicode.Armenian},
	{bengali, unicode.Bengali},
	{gujarati, unicode.Gujarati},
	{gurmukhi, unicode.Gurmukhi},
	{tamil, unicode.Tamil},
	{telugu, unicode.Telugu},
	{thai, unicode.Thai},
}

// scriptOf classifies a letter or mark. ASCII and Latin-1 take the fast path
// because they are most of the web.
func scriptOf(r rune) script {
	if r < 0x250 {
		return latin
	}
	if r == 0x30FC { // katakana-hiragana prolonged sound mark is Common
		return kana
	}
	for _, st := range scriptTables {
		if unicode.Is(st.t, r) {
			return st.s
		}
	}
	return otherScript
}
