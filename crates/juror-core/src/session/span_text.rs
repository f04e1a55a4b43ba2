//! The text of an output asking for error spans, as the page handles it: positions the browser
//! gives in UTF-16 units turned into code points (what span offsets count), words for moving a
//! caret by word and for snapping a tap to a word, a selection trimmed of surrounding
//! whitespace, and the text cut into the pieces the page renders (words, each in or out of a
//! marked span).

/// The code point index of the position `utf16` UTF-16 units into `text` (the browser's
/// offsets). A position inside a character (between the two halves of a surrogate pair) falls
/// back to that character's start; a position past the end is the end.
pub fn utf16_to_char(text: &str, utf16: usize) -> usize {
    let mut units = 0;
    for (i, c) in text.chars().enumerate() {
        units += c.len_utf16();
        if units > utf16 {
            return i;
        }
    }
    text.chars().count()
}

/// Whether `c` belongs to a word: letters, digits, marks and the connecting underscore. Every
/// other character (spaces, punctuation, symbols) is a word of its own.
fn wordy(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || is_mark(c)
}

/// Combining marks (accents written as a second code point) stay with their letter.
fn is_mark(c: char) -> bool {
    matches!(u32::from(c), 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

/// Ideographs and kana: each is a word of its own (the text has no spaces between words).
fn ideographic(c: char) -> bool {
    matches!(u32::from(c), 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x2FA1F)
}

/// The pieces of `text` a tap can choose, in order, as code point ranges: each run of word
/// characters, each ideograph, each other character alone, each run of whitespace. They cover
/// the text.
pub fn tokens(text: &str) -> Vec<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let mut j = i + 1;
        if c.is_whitespace() {
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
        } else if wordy(c) && !ideographic(c) {
            while j < chars.len() && wordy(chars[j]) && !ideographic(chars[j]) {
                j += 1;
            }
        }
        out.push((i, j));
        i = j;
    }
    out
}

/// The word (token, [`tokens`]) holding the character at `at`, unless it is whitespace.
pub fn word_at(text: &str, at: usize) -> Option<(usize, usize)> {
    tokens(text)
        .into_iter()
        .find(|&(s, e)| s <= at && at < e)
        .filter(|&(s, _)| text.chars().nth(s).is_some_and(|c| !c.is_whitespace()))
}

/// Where Ctrl+Right moves a caret at `at`: past the whitespace, to the end of the next word.
pub fn next_word(text: &str, at: usize) -> usize {
    let words = tokens(text);
    words
        .iter()
        .find(|&&(s, e)| e > at && !is_space(text, s))
        .map_or_else(|| text.chars().count(), |&(_, e)| e)
}

/// Where Ctrl+Left moves a caret at `at`: back over the whitespace, to the start of the word
/// before.
pub fn previous_word(text: &str, at: usize) -> usize {
    let words = tokens(text);
    words
        .iter()
        .rev()
        .find(|&&(s, _)| s < at && !is_space(text, s))
        .map_or(0, |&(s, _)| s)
}

fn is_space(text: &str, at: usize) -> bool {
    text.chars().nth(at).is_some_and(char::is_whitespace)
}

/// The selection `start..end` (code points, either order) without the whitespace around it,
/// inside the text; `None` when nothing but whitespace is left.
pub fn trim(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let chars: Vec<char> = text.chars().collect();
    let (mut s, mut e) = (start.min(end), start.max(end).min(chars.len()));
    while s < e && chars[s].is_whitespace() {
        s += 1;
    }
    while e > s && chars[e - 1].is_whitespace() {
        e -= 1;
    }
    (s < e).then_some((s, e))
}

/// The text of `start..end` (code points).
pub fn slice(text: &str, start: usize, end: usize) -> String {
    text.chars()
        .skip(start)
        .take(end.saturating_sub(start))
        .collect()
}

/// A piece of the text as the page renders it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// The first character (code points).
    pub start: usize,
    /// One past the last character.
    pub end: usize,
    /// The characters.
    pub text: String,
    /// The index, in `marks`, of the marked span it lies in, if any.
    pub mark: Option<usize>,
}

/// `text` cut into its words ([`tokens`]), further cut at the edges of the marked spans
/// `marks` (code point ranges, not overlapping) and at `cuts` (a caret, a selection's ends), each
/// piece with the span it lies in.
pub fn pieces(text: &str, marks: &[(usize, usize)], cuts: &[usize]) -> Vec<Piece> {
    let chars: Vec<char> = text.chars().collect();
    let mut edges: Vec<usize> = tokens(text).iter().map(|&(s, _)| s).collect();
    edges.extend(marks.iter().flat_map(|&(s, e)| [s, e]));
    edges.extend(cuts.iter().copied());
    edges.push(chars.len());
    edges.retain(|&e| e <= chars.len());
    crate::base::order::sort(&mut edges);
    edges.dedup();
    edges
        .windows(2)
        .map(|w| Piece {
            start: w[0],
            end: w[1],
            text: chars[w[0]..w[1]].iter().collect(),
            mark: marks.iter().position(|&(s, e)| s <= w[0] && w[1] <= e),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_offsets_become_code_points_with_accents_emoji_and_ideographs() {
        let text = "café 😀 猫が好き";
        // é is one UTF-16 unit; 😀 is two (a surrogate pair); ideographs one each.
        assert_eq!(utf16_to_char(text, 0), 0);
        assert_eq!(utf16_to_char(text, 4), 4);
        assert_eq!(utf16_to_char(text, 5), 5, "the emoji starts at unit 5");
        assert_eq!(utf16_to_char(text, 6), 5, "inside the emoji: its start");
        assert_eq!(
            utf16_to_char(text, 7),
            6,
            "after the emoji: one code point on"
        );
        assert_eq!(utf16_to_char(text, 8), 7, "猫");
        assert_eq!(utf16_to_char(text, 12), 11, "the end");
        assert_eq!(utf16_to_char(text, 99), 11, "past the end: the end");
        assert_eq!(slice(text, 7, 8), "猫");
        assert_eq!(slice(text, 5, 6), "😀");
    }

    #[test]
    fn words_for_taps_and_caret_moves() {
        let text = "The whale,  naïve 😀 猫が";
        assert_eq!(
            tokens(text),
            vec![
                (0, 3),
                (3, 4),
                (4, 9),
                (9, 10),
                (10, 12),
                (12, 17),
                (17, 18),
                (18, 19),
                (19, 20),
                (20, 21),
                (21, 22)
            ]
        );
        assert_eq!(word_at(text, 6), Some((4, 9)));
        assert_eq!(word_at(text, 9), Some((9, 10)), "a comma alone");
        assert_eq!(word_at(text, 10), None, "whitespace is no word");
        assert_eq!(word_at(text, 14), Some((12, 17)), "naïve in one piece");
        assert_eq!(word_at(text, 20), Some((20, 21)), "an ideograph alone");
        assert_eq!(word_at(text, 99), None);
        assert_eq!(next_word(text, 0), 3);
        assert_eq!(next_word(text, 3), 9);
        assert_eq!(next_word(text, 9), 10, "the comma is a word");
        assert_eq!(next_word(text, 10), 17);
        assert_eq!(next_word(text, 21), 22);
        assert_eq!(next_word(text, 22), 22, "at the end it stays");
        assert_eq!(previous_word(text, 17), 12);
        assert_eq!(previous_word(text, 12), 9);
        assert_eq!(previous_word(text, 6), 4, "from inside a word: its start");
        assert_eq!(previous_word(text, 0), 0);
        // A combining accent stays with its letter.
        assert_eq!(tokens("cafe\u{301} x"), vec![(0, 5), (5, 6), (6, 7)]);
    }

    #[test]
    fn a_selection_is_trimmed_of_whitespace_in_either_order() {
        let text = "  the whale  ";
        assert_eq!(trim(text, 0, 13), Some((2, 11)));
        assert_eq!(trim(text, 11, 2), Some((2, 11)));
        assert_eq!(trim(text, 0, 2), None);
        assert_eq!(trim(text, 5, 99), Some((6, 11)), "clamped to the text");
        assert_eq!(trim(text, 4, 4), None);
    }

    #[test]
    fn pieces_cover_the_text_cut_at_words_marks_and_the_caret() {
        let text = "the whale swam 😀 far";
        let marked = [(4, 14), (15, 16)];
        let p = pieces(text, &marked, &[6]);
        let joined: String = p.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(joined, text);
        assert!(p.windows(2).all(|w| w[0].end == w[1].start));
        let in_first: String = p
            .iter()
            .filter(|p| p.mark == Some(0))
            .map(|p| p.text.as_str())
            .collect();
        assert_eq!(in_first, "whale swam");
        assert!(
            p.iter().any(|p| p.start == 4 && p.end == 6),
            "cut at the caret"
        );
        let emoji = p.iter().find(|p| p.mark == Some(1)).unwrap();
        assert_eq!(
            (emoji.start, emoji.end, emoji.text.as_str()),
            (15, 16, "😀")
        );
        assert_eq!(p.last().unwrap().mark, None);
        assert!(pieces("", &[], &[0]).is_empty());
    }
}
