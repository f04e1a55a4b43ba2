//! Reading the cells of the rating sheet and ratings CSV: lists and options.

/// The parts of a list cell: separated by `>` (and, for a ranking of letters, commas, `;` or
/// spaces too), or by `;` for a list of options.
pub fn split_list(value: &str, ranking: bool) -> impl Iterator<Item = &str> {
    value
        .split(move |c: char| {
            if ranking {
                c == '>' || c == ',' || c == ';' || c.is_whitespace()
            } else {
                c == ';'
            }
        })
        .map(str::trim)
        .filter(|s| !s.is_empty())
}

/// The option of `options` that `value` names (exactly, else ignoring case).
pub fn option_of(options: &[String], value: &str) -> Result<String, String> {
    options
        .iter()
        .find(|o| o.as_str() == value)
        .or_else(|| options.iter().find(|o| o.eq_ignore_ascii_case(value)))
        .cloned()
        .ok_or_else(|| {
            format!(
                "\"{value}\" is not an option; write one of: {}",
                options.join(", ")
            )
        })
}
