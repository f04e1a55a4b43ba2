//! The scale's shape (a dimension's score, a Likert question, a slider): how a score is
//! written in words and read from a cell of the rating sheet or a ratings CSV.

use crate::study::model::Scale;

impl Scale {
    /// "from 1 to 5: 1 Irrelevant, 2 Poor, …": a scale in words.
    pub fn words(&self) -> String {
        let points: Vec<String> = self
            .points
            .iter()
            .map(|p| match &p.label {
                Some(label) => format!("{} {label}", p.value),
                None => p.value.to_string(),
            })
            .collect();
        format!(
            "a whole number from {} to {} ({})",
            self.min(),
            self.max(),
            points.join(", ")
        )
    }

    /// A score on `scale`, or why not: "6 is not on the scale 1–5; write a whole number from 1 to 5".
    pub fn parse_cell(&self, value: &str) -> Result<i32, String> {
        let (min, max) = (self.min(), self.max());
        let fix = format!("write a whole number from {min} to {max}");
        let x: f64 = value
            .parse()
            .map_err(|_| format!("\"{value}\" is not a number; {fix}"))?;
        if !x.is_finite() || x.fract() != 0.0 {
            return Err(format!("{value} is not a whole number; {fix}"));
        }
        if x < f64::from(min) || x > f64::from(max) {
            return Err(format!("{value} is not on the scale {min}–{max}; {fix}"));
        }
        Ok(x as i32)
    }
}
